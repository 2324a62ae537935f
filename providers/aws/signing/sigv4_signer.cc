#include "providers/aws/signing/sigv4_signer.h"

#include <algorithm>
#include <map>
#include <vector>

#include "engine/base/hash.h"
#include "providers/aws/http/url.h"
#include "providers/aws/signing/sigv4_canonical.h"

namespace strata::aws {
namespace {

constexpr std::string_view kSecurityTokenHeader = "X-Amz-Security-Token";

bool IsUnsignedHeader(std::string_view lower_name) {
  return lower_name == "authorization" || lower_name == "user-agent" || lower_name == "expect" ||
         lower_name == "connection" || lower_name == "transfer-encoding" ||
         lower_name == "x-amzn-trace-id";
}

std::string RemoveDotSegments(std::string_view path) {
  std::vector<std::string_view> segments;
  size_t pos = 0;
  bool ends_in_dir = path.empty() || path.back() == '/';
  while (pos <= path.size()) {
    size_t slash = path.find('/', pos);
    std::string_view seg = path.substr(pos, slash == std::string_view::npos ? slash : slash - pos);
    bool last = slash == std::string_view::npos;
    if (seg == "..") {
      if (!segments.empty()) segments.pop_back();
      if (last) ends_in_dir = true;
    } else if (seg == ".") {
      if (last) ends_in_dir = true;
    } else if (!seg.empty()) {
      segments.push_back(seg);
    }
    if (last) break;
    pos = slash + 1;
  }
  std::string out;
  for (auto seg : segments) {
    out += '/';
    out += seg;
  }
  if (out.empty() || ends_in_dir) out += '/';
  return out;
}

CanonicalHeaders BuildCanonicalHeaders(const HttpHeaders& headers, const Url& url) {
  std::map<std::string, std::string> merged;  // sorted by lower-case name
  for (const auto& [name, value] : headers) {
    std::string lower = ToLower(name);
    if (IsUnsignedHeader(lower)) continue;
    auto [it, inserted] = merged.try_emplace(lower, CanonicalHeaderValue(value));
    if (!inserted) it->second.append(1, ',').append(CanonicalHeaderValue(value));
  }
  merged.try_emplace("host", url.HostHeader());
  return JoinCanonicalHeaders({merged.begin(), merged.end()});
}

std::string PayloadHash(const HttpRequest& request, const SigningOptions& options) {
  return options.payload_hash ? *options.payload_hash : base::Sha256Hex(request.body);
}

// Fills canonical request, string to sign and signature of `details`.
void Compute(const HttpRequest& request, const Url& url, const std::string& canonical_query,
             const CanonicalHeaders& headers, const std::string& payload_hash,
             const std::string& amz_date, const Credentials& creds,
             const SigningOptions& options, SignatureDetails* details) {
  details->canonical_request = CanonicalRequest(request.method, CanonicalUri(url.path, options),
                                                canonical_query, headers, payload_hash);
  details->string_to_sign =
      StringToSign(amz_date, details->credential_scope, details->canonical_request);
  details->signature = SignatureHex(creds.secret_access_key, amz_date.substr(0, 8), options.region,
                                    options.service, details->string_to_sign);
  details->signed_headers = headers.signed_names;
}

Result<Url> ParseRequestUrl(const HttpRequest& request) {
  Url url;
  if (!ParseUrl(request.url, &url))
    return AwsError::Client(error_codes::kInvalidConfig, "cannot sign: not an absolute URL: " +
                                                             request.url);
  return url;
}

std::string Scope(const std::string& amz_date, const SigningOptions& options) {
  return CredentialScope(amz_date.substr(0, 8), options.region, options.service);
}

}  // namespace

std::string CanonicalUri(std::string_view path, const SigningOptions& options) {
  std::string normalized = options.normalize_path ? RemoveDotSegments(path) : std::string(path);
  if (normalized.empty()) normalized.assign(1, '/');
  return options.double_encode_path ? UriEncode(normalized, /*keep_slash=*/true) : normalized;
}

Result<SignatureDetails> SignRequest(HttpRequest& request, const Credentials& creds,
                                     const SigningOptions& options) {
  auto url = ParseRequestUrl(request);
  if (!url.ok()) return url.error();
  const std::string amz_date = FormatAmzDate(options.time);
  SetHeader(request.headers, "X-Amz-Date", amz_date);
  RemoveHeader(request.headers, "Authorization");
  bool token_after = !creds.session_token.empty() && !options.sign_session_token;
  if (!creds.session_token.empty() && options.sign_session_token)
    SetHeader(request.headers, kSecurityTokenHeader, creds.session_token);
  if (token_after) RemoveHeader(request.headers, kSecurityTokenHeader);
  const std::string payload_hash = PayloadHash(request, options);
  if (options.add_content_sha256_header)
    SetHeader(request.headers, "x-amz-content-sha256", payload_hash);

  SignatureDetails details;
  details.credential_scope = Scope(amz_date, options);
  CanonicalHeaders headers = BuildCanonicalHeaders(request.headers, *url);
  Compute(request, *url, CanonicalQuery(ParseQuery(url->query)), headers, payload_hash, amz_date,
          creds, options, &details);
  details.authorization = std::string(kSigV4Algorithm) + " Credential=" + creds.access_key_id + "/" +
                          details.credential_scope + ", SignedHeaders=" + details.signed_headers +
                          ", Signature=" + details.signature;
  if (token_after) SetHeader(request.headers, kSecurityTokenHeader, creds.session_token);
  SetHeader(request.headers, "Authorization", details.authorization);
  return details;
}

Result<SignatureDetails> PresignRequest(HttpRequest& request, const Credentials& creds,
                                        const SigningOptions& options,
                                        std::chrono::seconds expires) {
  auto url = ParseRequestUrl(request);
  if (!url.ok()) return url.error();
  const std::string amz_date = FormatAmzDate(options.time);
  SignatureDetails details;
  details.credential_scope = Scope(amz_date, options);
  CanonicalHeaders headers = BuildCanonicalHeaders(request.headers, *url);

  QueryParams params = ParseQuery(url->query);
  std::erase_if(params, [](const auto& p) { return p.first == "X-Amz-Signature"; });
  params.emplace_back("X-Amz-Algorithm", std::string(kSigV4Algorithm));
  params.emplace_back("X-Amz-Credential", creds.access_key_id + "/" + details.credential_scope);
  params.emplace_back("X-Amz-Date", amz_date);
  params.emplace_back("X-Amz-Expires", std::to_string(expires.count()));
  params.emplace_back("X-Amz-SignedHeaders", headers.signed_names);
  bool token_signed = !creds.session_token.empty() && options.sign_session_token;
  if (token_signed) params.emplace_back(std::string(kSecurityTokenHeader), creds.session_token);
  const std::string canonical_query = CanonicalQuery(params);

  Compute(request, *url, canonical_query, headers, PayloadHash(request, options), amz_date, creds,
          options, &details);
  std::string query = canonical_query;
  if (!creds.session_token.empty() && !token_signed)
    query += "&" + std::string(kSecurityTokenHeader) + "=" + UriEncode(creds.session_token);
  query += "&X-Amz-Signature=" + details.signature;
  request.url = url->Origin() + url->path + "?" + query;
  return details;
}

}  // namespace strata::aws
