// AWS Certificate Manager (awsJson 1.1, target prefix CertificateManager, signing name
// "acm") as the sandbox serves it: RequestCertificate, DescribeCertificate,
// ListCertificates (CertificateStatuses, Includes.keyTypes, paging), DeleteCertificate and
// the certificate's tags (ListTagsForCertificate, AddTagsToCertificate,
// RemoveTagsFromCertificate). No certificate is signed: certificates are records with ACM's
// fields and rules.
//
// A requested certificate stays PENDING_VALIDATION: the sandbox does not resolve the DNS
// validation record it hands out, so it never pretends the domain was validated. What a
// real account holds before a deployment starts — an issued wildcard certificate — comes
// from SandboxSettings::seed_certificates (`strata sandbox serve --certificate
// '*.example.com'`): each domain is an ISSUED certificate in every region the first time
// ACM is called there, and stays deleted once deleted.
//
// Storage: World documents under "acm.certificate" keyed "<region>/<certificate id>", in
// DescribeCertificate's member names, plus "Tags" ({key: value}) and "IdempotencyToken".

#include <algorithm>

#include "sandbox/json_service.h"

namespace strata::sandbox {
namespace acm {
namespace {

constexpr const char* kCertificateKind = "acm.certificate";
constexpr int64_t kValidityDays = 395;

ApiError AcmNotFound(const std::string& arn) {
  return ApiError(400, "ResourceNotFoundException", "Could not find certificate " + arn + ".");
}
ApiError AcmInvalidArn(const std::string& arn) {
  return ApiError(400, "InvalidArnException", "The certificate ARN " + arn + " is not valid.");
}

std::string CertificateArn(const ServiceContext& ctx, const std::string& id) {
  return "arn:aws:acm:" + RegionOf(ctx) + ":" + ctx.settings.account_id + ":certificate/" + id;
}

std::string IdOfArn(const ServiceContext& ctx, const std::string& arn) {
  std::string prefix = "arn:aws:acm:" + RegionOf(ctx) + ":" + ctx.settings.account_id + ":certificate/";
  if (arn.rfind("arn:", 0) != 0 || arn.find(":certificate/") == std::string::npos) throw AcmInvalidArn(arn);
  if (arn.rfind(prefix, 0) != 0) throw AcmNotFound(arn);
  return arn.substr(prefix.size());
}

void SaveCertificate(ServiceContext& ctx, const Json& cert) {
  std::string arn = cert["CertificateArn"];
  ctx.world.Put(kCertificateKind, RegionOf(ctx) + "/" + arn.substr(arn.rfind('/') + 1), cert);
}

Json FindCertificate(ServiceContext& ctx, const std::string& arn) {
  std::optional<Json> cert = ctx.world.Get(kCertificateKind, RegionOf(ctx) + "/" + IdOfArn(ctx, arn));
  if (!cert) throw AcmNotFound(arn);
  return *cert;
}

std::string ValidationToken(ServiceContext& ctx) { return "_" + ctx.world.RandomString(32, "0123456789abcdef"); }

//! The DNS validation option of `domain` (the CNAME ACM asks to be created).
Json DnsValidation(ServiceContext& ctx, const std::string& domain, const std::string& status) {
  std::string base = domain.rfind("*.", 0) == 0 ? domain.substr(2) : domain;
  return {{"DomainName", domain},
          {"ValidationDomain", domain},
          {"ValidationStatus", status},
          {"ResourceRecord",
           {{"Name", ValidationToken(ctx) + "." + base + "."},
            {"Type", "CNAME"},
            {"Value", ValidationToken(ctx) + "." + ctx.world.RandomString(10, "abcdefghijklmnopqrstuvwxyz") +
                          ".acm-validations.aws."}}},
          {"ValidationMethod", "DNS"}};
}

//! A new certificate record of `domain` and `sans` (the domain first, as ACM lists them).
Json NewCertificate(ServiceContext& ctx, const std::string& domain, std::vector<std::string> sans, bool issued,
                    const std::string& key_algorithm) {
  if (std::find(sans.begin(), sans.end(), domain) == sans.end()) sans.insert(sans.begin(), domain);
  std::string id = ctx.world.NewUuid();
  double now = EpochSeconds(ctx.now);
  Json validations = Json::array();
  for (const std::string& name : sans) validations.push_back(DnsValidation(ctx, name, issued ? "SUCCESS" : "PENDING_VALIDATION"));
  Json cert = {{"CertificateArn", CertificateArn(ctx, id)},
               {"DomainName", domain},
               {"SubjectAlternativeNames", sans},
               {"DomainValidationOptions", validations},
               {"Subject", "CN=" + domain},
               {"CreatedAt", now},
               {"Status", issued ? "ISSUED" : "PENDING_VALIDATION"},
               {"KeyAlgorithm", key_algorithm},
               {"SignatureAlgorithm", key_algorithm.rfind("EC", 0) == 0 ? "SHA256WITHECDSA" : "SHA256WITHRSA"},
               {"InUseBy", Json::array()},
               {"Type", "AMAZON_ISSUED"},
               {"RenewalEligibility", issued ? "ELIGIBLE" : "INELIGIBLE"},
               {"Options", {{"CertificateTransparencyLoggingPreference", "ENABLED"}}},
               {"Tags", Json::object()}};
  if (issued) {
    cert["Serial"] = ctx.world.RandomString(32, "0123456789abcdef");
    cert["Issuer"] = "Amazon";
    cert["IssuedAt"] = now;
    cert["NotBefore"] = now;
    cert["NotAfter"] = now + static_cast<double>(kValidityDays) * 86400.0;
    cert["KeyUsages"] = Json::array({{{"Name", "DIGITAL_SIGNATURE"}}, {{"Name", "KEY_ENCIPHERMENT"}}});
    cert["ExtendedKeyUsages"] = Json::array({{{"Name", "TLS_WEB_SERVER_AUTHENTICATION"}, {"OID", "1.3.6.1.5.5.7.3.1"}},
                                             {{"Name", "TLS_WEB_CLIENT_AUTHENTICATION"}, {"OID", "1.3.6.1.5.5.7.3.2"}}});
  }
  return cert;
}

//! The seeded certificates (SandboxSettings::seed_certificates) of the call's region, made
//! ISSUED the first time ACM is called there; a marker per region and domain keeps a deleted
//! one deleted.
void SeedCertificates(ServiceContext& ctx) {
  for (const std::string& domain : ctx.settings.seed_certificates) {
    std::string marker = "acm.seeded/" + RegionOf(ctx) + "/" + domain;
    if (ctx.world.Setting(marker)) continue;
    Json cert = NewCertificate(ctx, domain, {}, true, "RSA-2048");
    SaveCertificate(ctx, cert);
    ctx.world.SetSetting(marker, cert["CertificateArn"].get<std::string>());
  }
}

std::vector<Json> CertificatesIn(ServiceContext& ctx) {
  SeedCertificates(ctx);
  std::vector<Json> out;
  for (auto& [id, cert] : ctx.world.ListPrefix(kCertificateKind, RegionOf(ctx) + "/")) out.push_back(cert);
  std::sort(out.begin(), out.end(), [](const Json& a, const Json& b) { return a["CreatedAt"] < b["CreatedAt"]; });
  return out;
}

//! "RSA_2048" (the request's and the filter's enum) as certificates carry it, "RSA-2048".
std::string KeyAlgorithmName(std::string value) {
  std::replace(value.begin(), value.end(), '_', '-');
  if (value.rfind("EC-", 0) == 0) value = "EC_" + value.substr(3);  // "EC_prime256v1" keeps its underscore
  return value;
}

Json TagsFromList(const Json& input, Json tags) {
  if (!input.contains("Tags") || !input["Tags"].is_array()) return tags;
  for (const Json& tag : input["Tags"]) {
    std::string key = tag.value("Key", "");
    if (key.empty() || key.size() > 128) throw ApiError(400, "InvalidTagException", "Tag keys must be 1 to 128 characters.");
    tags[key] = tag.value("Value", "");
  }
  if (tags.size() > 50) throw ApiError(400, "TooManyTagsException", "A certificate holds at most 50 tags.");
  return tags;
}

Json RequestCertificate(JsonCall& call) {
  std::string domain = RequiredJsonString(call.input, "DomainName");
  if (domain.empty() || domain.size() > 253 || domain.find('.') == std::string::npos) {
    throw ApiError(400, "ValidationException", "1 validation error detected: Value '" + domain +
                                                   "' at 'domainName' failed to satisfy constraint: Member must be a domain name");
  }
  std::string method = OptionalJsonString(call.input, "ValidationMethod");
  if (!method.empty() && method != "DNS" && method != "EMAIL") {
    throw ApiError(400, "ValidationException", "Value '" + method + "' at 'validationMethod' failed to satisfy constraint");
  }
  std::string token = OptionalJsonString(call.input, "IdempotencyToken");
  if (!token.empty()) {
    // The same token within an hour is the same request: ACM answers with its certificate.
    for (const Json& cert : CertificatesIn(call.ctx)) {
      if (cert.value("IdempotencyToken", "") == token && EpochSeconds(call.ctx.now) - cert["CreatedAt"].get<double>() < 3600) {
        return Json{{"CertificateArn", cert["CertificateArn"]}};
      }
    }
  }
  std::vector<std::string> sans;
  if (call.input.contains("SubjectAlternativeNames") && call.input["SubjectAlternativeNames"].is_array()) {
    for (const Json& name : call.input["SubjectAlternativeNames"]) {
      if (name.is_string()) sans.push_back(name.get<std::string>());
    }
  }
  Json cert = NewCertificate(call.ctx, domain, sans, false, KeyAlgorithmName(call.input.value("KeyAlgorithm", "RSA_2048")));
  cert["Tags"] = TagsFromList(call.input, Json::object());
  if (!token.empty()) cert["IdempotencyToken"] = token;
  SaveCertificate(call.ctx, cert);
  return Json{{"CertificateArn", cert["CertificateArn"]}};
}

Json DescribeCertificate(JsonCall& call) {
  SeedCertificates(call.ctx);
  Json cert = FindCertificate(call.ctx, RequiredJsonString(call.input, "CertificateArn"));
  cert.erase("Tags");
  cert.erase("IdempotencyToken");
  return Json{{"Certificate", cert}};
}

Json Summary(const Json& cert) {
  Json summary = {{"CertificateArn", cert["CertificateArn"]},
                  {"DomainName", cert["DomainName"]},
                  {"SubjectAlternativeNameSummaries", cert["SubjectAlternativeNames"]},
                  {"HasAdditionalSubjectAlternativeNames", false},
                  {"Status", cert["Status"]},
                  {"Type", cert["Type"]},
                  {"KeyAlgorithm", cert["KeyAlgorithm"]},
                  {"InUse", !cert["InUseBy"].empty()},
                  {"RenewalEligibility", cert["RenewalEligibility"]},
                  {"CreatedAt", cert["CreatedAt"]}};
  for (const char* member : {"KeyUsages", "ExtendedKeyUsages"}) {
    if (!cert.contains(member)) continue;
    Json names = Json::array();
    for (const Json& usage : cert[member]) names.push_back(usage["Name"]);
    summary[member] = names;
  }
  for (const char* member : {"IssuedAt", "NotBefore", "NotAfter"}) {
    if (cert.contains(member)) summary[member] = cert[member];
  }
  return summary;
}

Json ListCertificates(JsonCall& call) {
  std::vector<std::string> statuses;
  if (call.input.contains("CertificateStatuses") && call.input["CertificateStatuses"].is_array()) {
    for (const Json& s : call.input["CertificateStatuses"]) statuses.push_back(s.get<std::string>());
  }
  // Without Includes.keyTypes ACM lists only RSA_2048 certificates.
  std::vector<std::string> key_types = {"RSA-2048"};
  const Json includes = call.input.value("Includes", Json::object());
  if (includes.contains("keyTypes") && includes["keyTypes"].is_array() && !includes["keyTypes"].empty()) {
    key_types.clear();
    for (const Json& k : includes["keyTypes"]) key_types.push_back(KeyAlgorithmName(k.get<std::string>()));
  }
  std::vector<Json> selected;
  for (const Json& cert : CertificatesIn(call.ctx)) {
    std::string status = cert["Status"];
    if (!statuses.empty() && std::find(statuses.begin(), statuses.end(), status) == statuses.end()) continue;
    if (std::find(key_types.begin(), key_types.end(), cert["KeyAlgorithm"].get<std::string>()) == key_types.end()) continue;
    selected.push_back(Summary(cert));
  }
  int64_t max_items = call.input.value("MaxItems", int64_t{1000});
  if (max_items < 1 || max_items > 1000) throw ApiError(400, "ValidationException", "MaxItems must be from 1 to 1000.");
  Json out = Json::object();
  AnswerJsonPage(call.input, {"NextToken", "acm-page-", ApiError(400, "InvalidArgsException", "The NextToken is not valid.")},
                 selected, static_cast<size_t>(max_items), "CertificateSummaryList", out);
  return out;
}

Json DeleteCertificate(JsonCall& call) {
  Json cert = FindCertificate(call.ctx, RequiredJsonString(call.input, "CertificateArn"));
  if (!cert["InUseBy"].empty()) {
    throw ApiError(400, "ResourceInUseException", "Certificate " + cert["CertificateArn"].get<std::string>() + " is in use.");
  }
  std::string arn = cert["CertificateArn"];
  call.world().Erase(kCertificateKind, RegionOf(call.ctx) + "/" + arn.substr(arn.rfind('/') + 1));
  return Json::object();
}

Json ListTagsForCertificate(JsonCall& call) {
  Json cert = FindCertificate(call.ctx, RequiredJsonString(call.input, "CertificateArn"));
  Json tags = Json::array();
  for (const auto& [key, value] : cert["Tags"].items()) tags.push_back({{"Key", key}, {"Value", value}});
  return Json{{"Tags", tags}};
}

Json AddTagsToCertificate(JsonCall& call) {
  Json cert = FindCertificate(call.ctx, RequiredJsonString(call.input, "CertificateArn"));
  cert["Tags"] = TagsFromList(call.input, cert["Tags"]);
  SaveCertificate(call.ctx, cert);
  return Json::object();
}

Json RemoveTagsFromCertificate(JsonCall& call) {
  Json cert = FindCertificate(call.ctx, RequiredJsonString(call.input, "CertificateArn"));
  if (call.input.contains("Tags") && call.input["Tags"].is_array()) {
    for (const Json& tag : call.input["Tags"]) {
      std::string key = tag.value("Key", "");
      // A tag given with a value is removed only when the value matches.
      if (tag.contains("Value") && cert["Tags"].value(key, "") != tag.value("Value", "")) continue;
      cert["Tags"].erase(key);
    }
  }
  SaveCertificate(call.ctx, cert);
  return Json::object();
}

}  // namespace
}  // namespace acm

std::unique_ptr<Service> NewAcmService() {
  JsonActionTable actions = {{"RequestCertificate", acm::RequestCertificate},
                             {"DescribeCertificate", acm::DescribeCertificate},
                             {"ListCertificates", acm::ListCertificates},
                             {"DeleteCertificate", acm::DeleteCertificate},
                             {"ListTagsForCertificate", acm::ListTagsForCertificate},
                             {"AddTagsToCertificate", acm::AddTagsToCertificate},
                             {"RemoveTagsFromCertificate", acm::RemoveTagsFromCertificate}};
  return NewJsonService("acm", {"CertificateManager", "1.1"}, std::move(actions));
}

}  // namespace strata::sandbox
