// data "aws_acm_certificate": the ACM certificate of a domain, by Terraform's rules. The
// region's certificates are listed (ListCertificates, every page) with `statuses` (default
// ["ISSUED"]) and `key_types` (as Includes.keyTypes; without it ACM lists RSA_2048
// certificates only); those whose DomainName is `domain` exactly — a wildcard domain is
// written as it is, "*.example.com" — are candidates. None: "no certificate for domain ...".
// Several without `most_recent` or `types`: "multiple certificates for domain ... found in
// this Region". Each candidate is described; `types` keeps those of a listed type, and
// `most_recent` keeps the newest (by NotBefore among issued ones, by CreatedAt otherwise;
// candidates of different statuses cannot be compared, as in Terraform).

#include <algorithm>

#include "providers/aws/services/acm/acm_api.h"
#include "providers/aws/services/acm/acm_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

class AwsAcmCertificateData final : public AwsDataSourceType {
 public:
  using AwsDataSourceType::AwsDataSourceType;

  ResourceSchema Schema() const override {
    ResourceSchema s = ManagedSchema("aws_acm_certificate", {{"domain", Required("string")},
                                                             {"statuses", Optional("list(string)")},
                                                             {"types", Optional("list(string)")},
                                                             {"key_types", Optional("set(string)")},
                                                             {"most_recent", Optional("bool")},
                                                             {"arn", Computed("string")},
                                                             {"status", Computed("string")},
                                                             {"tags", Computed("map(string)")}});
    s.mode = ResourceMode::Data;
    return s;
  }

  ReadResult Read(const OperationContext& ctx, const Value& config) override {
    std::string domain = GetString(config, "domain");
    std::vector<std::string> statuses = GetStringList(config, "statuses");
    if (statuses.empty()) statuses = {"ISSUED"};
    json input = {{"CertificateStatuses", statuses}};
    std::vector<std::string> key_types = GetStringList(config, "key_types");
    if (!key_types.empty()) input["Includes"] = {{"keyTypes", key_types}};
    std::vector<std::string> arns;
    std::string token;
    do {
      json page = input;
      if (!token.empty()) page["NextToken"] = token;
      Result<json> listed = CallAcm(*session_, ctx, "ListCertificates", page);
      if (!listed.ok()) return Failed(AwsErrorDiag("ListCertificates", listed.error()));
      for (const json& summary : listed->value("CertificateSummaryList", json::array())) {
        if (summary.value("DomainName", "") == domain) arns.push_back(summary.value("CertificateArn", ""));
      }
      token = listed->value("NextToken", "");
    } while (!token.empty());
    if (arns.empty()) return Failed(NoCertificate(domain));

    std::vector<std::string> types = GetStringList(config, "types");
    bool most_recent = GetBool(config, "most_recent", false);
    if (arns.size() > 1 && !most_recent && types.empty()) return Failed(Multiple(domain));
    std::optional<json> matched;
    for (const std::string& arn : arns) {
      Result<json> described = CallAcm(*session_, ctx, "DescribeCertificate", {{"CertificateArn", arn}});
      if (!described.ok()) return Failed(AwsErrorDiag("DescribeCertificate", described.error()));
      json cert = described->value("Certificate", json::object());
      if (!types.empty() && std::find(types.begin(), types.end(), cert.value("Type", "")) == types.end()) continue;
      if (!matched) {
        matched = cert;
      } else if (!most_recent) {
        return Failed(Multiple(domain));
      } else if (cert.value("Status", "") != matched->value("Status", "")) {
        return Failed(Error("Cannot pick the most recent certificate",
                            "most_recent filtering on different ACM certificate statuses is not supported: give one "
                            "status in `statuses` for domain \"" + domain + "\"."));
      } else {
        const char* when = cert.value("Status", "") == "ISSUED" ? "NotBefore" : "CreatedAt";
        if (cert.value(when, 0.0) > matched->value(when, 0.0)) matched = cert;
      }
    }
    if (!matched) return Failed(NoCertificate(domain));

    std::string arn = matched->value("CertificateArn", "");
    Result<json> tags = CallAcm(*session_, ctx, "ListTagsForCertificate", {{"CertificateArn", arn}});
    if (!tags.ok()) return Failed(AwsErrorDiag("ListTagsForCertificate", tags.error()));
    TagMap tag_map;
    for (const json& tag : tags->value("Tags", json::array())) tag_map[tag.value("Key", "")] = tag.value("Value", "");
    tag_map.erase(kCreateTokenTag);
    return {Value::Object({{"id", Value::String(arn)},
                           {"domain", Value::String(domain)},
                           {"statuses", Get(config, "statuses")},
                           {"types", Get(config, "types")},
                           {"key_types", Get(config, "key_types")},
                           {"most_recent", Get(config, "most_recent")},
                           {"arn", Value::String(arn)},
                           {"status", Value::String(matched->value("Status", ""))},
                           {"tags", TagsValue(tag_map)}}),
            false,
            {}};
  }

 private:
  static ReadResult Failed(Diagnostics diags) { return {Value(), false, std::move(diags)}; }
  static Diagnostics NoCertificate(const std::string& domain) {
    return Error("No ACM certificate found", "no certificate for domain \"" + domain +
                                                 "\" found in this Region: request or import one, or widen `statuses`, "
                                                 "`key_types` or `types`.");
  }
  static Diagnostics Multiple(const std::string& domain) {
    return Error("Several ACM certificates found", "multiple certificates for domain \"" + domain +
                                                       "\" found in this Region: set `most_recent = true`, or narrow "
                                                       "the search with `statuses`, `key_types` or `types`.");
  }
};

}  // namespace

std::unique_ptr<DataSourceType> NewAwsAcmCertificateData(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsAcmCertificateData>(std::move(session));
}

}  // namespace strata::aws
