#include "sandbox/sigv4_verifier.h"

#include <algorithm>
#include <ctime>

#include "engine/base/hash.h"
#include "providers/aws/core/clock.h"
#include "providers/aws/http/url.h"
#include "providers/aws/signing/sigv4_canonical.h"
#include "providers/aws/signing/sigv4_signer.h"

namespace strata::sandbox {
namespace {

using aws::kSigV4Algorithm;
constexpr auto kAllowedSkew = std::chrono::minutes(15);

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::vector<std::string> Split(std::string_view s, char sep) {
  std::vector<std::string> out;
  while (true) {
    size_t at = s.find(sep);
    out.emplace_back(s.substr(0, at));
    if (at == std::string_view::npos) return out;
    s.remove_prefix(at + 1);
  }
}

void SplitTarget(const std::string& target, std::string* path, std::string* query) {
  size_t q = target.find('?');
  *path = target.substr(0, q);
  *query = q == std::string::npos ? "" : target.substr(q + 1);
}

// "AK/20260101/us-east-1/sts/aws4_request" into `auth`.
bool ParseCredential(std::string_view credential, SigV4Auth* auth) {
  std::vector<std::string> parts = Split(credential, '/');
  if (parts.size() != 5 || parts[4] != "aws4_request" || parts[0].empty()) return false;
  auth->access_key = parts[0];
  auth->date = parts[1];
  auth->region = parts[2];
  auth->service = parts[3];
  return true;
}

std::optional<SigV4Auth> Malformed(SigV4Check* check, std::string message) {
  check->problem = SigV4Problem::Malformed;
  check->message = std::move(message);
  return std::nullopt;
}

// "AWS4-HMAC-SHA256 Credential=..., SignedHeaders=..., Signature=..."
std::optional<SigV4Auth> FromAuthorization(const ReceivedRequest& request, std::string_view value,
                                           SigV4Check* check) {
  value = Trim(value);
  if (value.substr(0, kSigV4Algorithm.size()) != kSigV4Algorithm)
    return Malformed(check, "Unsupported Authorization Type");
  SigV4Auth auth;
  bool have_credential = false, have_headers = false, have_signature = false;
  for (const std::string& item : Split(value.substr(kSigV4Algorithm.size()), ',')) {
    std::string_view field = Trim(item);
    size_t eq = field.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view name = field.substr(0, eq), v = field.substr(eq + 1);
    if (name == "Credential") {
      have_credential = ParseCredential(v, &auth);
    } else if (name == "SignedHeaders") {
      auth.signed_headers = Split(v, ';');
      have_headers = !v.empty();
    } else if (name == "Signature") {
      auth.signature = std::string(v);
      have_signature = !v.empty();
    }
  }
  if (!have_credential)
    return Malformed(check, "Authorization header requires a valid 'Credential' parameter.");
  if (!have_headers || !have_signature)
    return Malformed(check, "Authorization header requires 'SignedHeaders' and 'Signature' parameters.");
  auto date = request.headers.find("x-amz-date");
  if (date != request.headers.end()) auth.amz_date = date->second;
  return auth;
}

std::optional<SigV4Auth> FromQuery(const aws::QueryParams& params, SigV4Check* check) {
  auto get = [&](std::string_view name) -> std::optional<std::string> {
    for (const auto& [k, v] : params)
      if (k == name) return v;
    return std::nullopt;
  };
  if (get("X-Amz-Algorithm").value_or("") != kSigV4Algorithm)
    return Malformed(check, "X-Amz-Algorithm must be AWS4-HMAC-SHA256.");
  SigV4Auth auth;
  auth.presigned = true;
  if (!ParseCredential(get("X-Amz-Credential").value_or(""), &auth))
    return Malformed(check, "X-Amz-Credential must be <key>/<date>/<region>/<service>/aws4_request.");
  auth.signed_headers = Split(get("X-Amz-SignedHeaders").value_or(""), ';');
  auth.signature = get("X-Amz-Signature").value_or("");
  auth.amz_date = get("X-Amz-Date").value_or("");
  if (auto expires = get("X-Amz-Expires")) {
    char* end = nullptr;
    long n = std::strtol(expires->c_str(), &end, 10);
    if (end == expires->c_str() || *end != '\0' || n < 0)
      return Malformed(check, "X-Amz-Expires must be a number of seconds.");
    auth.expires_seconds = n;
  }
  return auth;
}

// "20260101T120000Z"; nullopt when malformed.
std::optional<std::chrono::system_clock::time_point> ParseAmzDate(const std::string& text) {
  std::tm tm{};
  if (text.size() != 16 || text[8] != 'T' || text[15] != 'Z') return std::nullopt;
  if (!strptime(text.c_str(), "%Y%m%dT%H%M%SZ", &tm)) return std::nullopt;
  return std::chrono::system_clock::from_time_t(timegm(&tm));
}

std::string CanonicalRequest(const SigV4Auth& auth, const ReceivedRequest& request,
                             const std::string& payload_hash) {
  std::string path, query;
  SplitTarget(request.target, &path, &query);
  aws::SigningOptions uri_options;  // every service but S3 signs like this
  if (auth.service == "s3") {         // S3 signs the wire path as it is (keys like "a//b")
    uri_options.normalize_path = false;
    uri_options.double_encode_path = false;
  }
  std::vector<std::pair<std::string, std::string>> headers;
  for (const std::string& name : auth.signed_headers) {
    auto it = request.headers.find(name);
    headers.emplace_back(name, it == request.headers.end() ? "" : aws::CanonicalHeaderValue(it->second));
  }
  aws::QueryParams params = aws::ParseQuery(query);
  if (auth.presigned) std::erase_if(params, [](const auto& p) { return p.first == "X-Amz-Signature"; });
  return aws::CanonicalRequest(request.method, aws::CanonicalUri(path.empty() ? "/" : path, uri_options),
                               aws::CanonicalQuery(std::move(params)), aws::JoinCanonicalHeaders(headers),
                               payload_hash);
}

std::string Signature(const SigV4Auth& auth, const std::string& secret,
                      const std::string& canonical_request, std::string* string_to_sign) {
  *string_to_sign = aws::StringToSign(auth.amz_date, aws::CredentialScope(auth.date, auth.region, auth.service),
                                     canonical_request);
  return aws::SignatureHex(secret, auth.date, auth.region, auth.service, *string_to_sign);
}

// Constant-time comparison, so a signature cannot be guessed byte by byte.
bool SameSignature(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

SigV4Check CheckTime(const SigV4Auth& auth, std::chrono::system_clock::time_point now) {
  SigV4Check check;
  auto signed_at = ParseAmzDate(auth.amz_date);
  if (!signed_at || auth.amz_date.substr(0, 8) != auth.date) {
    check.problem = SigV4Problem::Malformed;
    check.message = "X-Amz-Date must be yyyyMMdd'T'HHmmss'Z' and match the credential scope date.";
    return check;
  }
  auto valid_for = std::max<std::chrono::system_clock::duration>(
      kAllowedSkew, std::chrono::seconds(auth.expires_seconds.value_or(0)));
  if (now > *signed_at + valid_for) {
    check.problem = SigV4Problem::Expired;
    check.message = "Signature expired: " + auth.amz_date + " is now earlier than " +
                    aws::FormatAmzDate(now - valid_for) + " (" + aws::FormatAmzDate(now) + " - 15 min.)";
  } else if (*signed_at > now + kAllowedSkew) {
    check.problem = SigV4Problem::Expired;
    check.message = "Signature not yet current: " + auth.amz_date + " is still later than " +
                    aws::FormatAmzDate(now + kAllowedSkew) + " (" + aws::FormatAmzDate(now) + " + 15 min.)";
  }
  return check;
}

}  // namespace

std::optional<SigV4Auth> ParseSigV4(const ReceivedRequest& request, SigV4Check* check) {
  auto authorization = request.headers.find("authorization");
  if (authorization != request.headers.end())
    return FromAuthorization(request, authorization->second, check);
  std::string path, query;
  SplitTarget(request.target, &path, &query);
  aws::QueryParams params = aws::ParseQuery(query);
  bool presigned = std::any_of(params.begin(), params.end(),
                               [](const auto& p) { return p.first == "X-Amz-Signature"; });
  if (presigned) return FromQuery(params, check);
  check->problem = SigV4Problem::Missing;
  check->message = "Request is missing Authentication Token";
  return std::nullopt;
}

SigV4Check VerifySigV4(const SigV4Auth& auth, const ReceivedRequest& request,
                       const std::string& secret_key, std::chrono::system_clock::time_point now) {
  SigV4Check check = CheckTime(auth, now);
  if (check.problem != SigV4Problem::None) return check;
  auto content_hash = request.headers.find("x-amz-content-sha256");
  std::string payload_hash = content_hash != request.headers.end() ? content_hash->second
                                                                   : base::Sha256Hex(request.body);
  check.canonical_request = CanonicalRequest(auth, request, payload_hash);
  std::string expected = Signature(auth, secret_key, check.canonical_request, &check.string_to_sign);
  if (SameSignature(expected, auth.signature)) return check;
  // Presigned URLs may leave the payload unsigned (botocore's S3-style presigning).
  if (auth.presigned && content_hash == request.headers.end()) {
    std::string unsigned_request = CanonicalRequest(auth, request, "UNSIGNED-PAYLOAD");
    std::string sts;
    if (SameSignature(Signature(auth, secret_key, unsigned_request, &sts), auth.signature)) return check;
  }
  check.problem = SigV4Problem::Mismatch;
  check.message =
      "The request signature we calculated does not match the signature you provided. Check your "
      "AWS Secret Access Key and signing method. Consult the service documentation for details.";
  return check;
}

}  // namespace strata::sandbox
