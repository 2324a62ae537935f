#include "sandbox/kubernetes/auth/eks_token_verifier.h"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <map>
#include <set>

#include "engine/base/base64.h"
#include "engine/base/query_unescape.h"
#include "providers/aws/http/url.h"
#include "sandbox/kubernetes/auth/sts_host.h"
#include "sandbox/sigv4_verifier.h"

namespace strata::sandbox::k8s_auth {
namespace {

using Clock = std::chrono::system_clock;
constexpr auto kPresignedUrlLifetime = std::chrono::minutes(15);
constexpr const char* kClusterIdHeader = "x-k8s-aws-id";

const std::set<std::string> kAllowedParameters = {
    "action",           "version",          "x-amz-algorithm",      "x-amz-credential",    "x-amz-date",
    "x-amz-expires",    "x-amz-security-token", "x-amz-signature",  "x-amz-signedheaders",
};

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// What the authenticator calls a FormatError.
TokenVerification Format(std::string message) {
  return TokenVerification{std::nullopt, "input token was not properly formatted: " + std::move(message)};
}

// What STS would answer when the authenticator replays the URL.
TokenVerification Sts(std::string message) {
  return TokenVerification{std::nullopt, "sts getCallerIdentity failed: " + std::move(message)};
}

// Go's base64.RawURLEncoding: the URL-safe alphabet and no padding.
std::optional<std::string> DecodeRawUrlBase64(std::string_view text) {
  for (char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return std::nullopt;
  }
  if (text.size() % 4 == 1) return std::nullopt;
  return base::Base64Decode(text, base::Base64Input::kLenient);
}

// Go's url.ParseQuery: every value of every key; nullopt when malformed (a ';' or a bad
// escape).
std::optional<std::map<std::string, std::vector<std::string>>> ParseQueryValues(std::string_view query) {
  std::map<std::string, std::vector<std::string>> out;
  while (!query.empty()) {
    size_t amp = query.find('&');
    std::string_view item = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (item.empty()) continue;
    if (item.find(';') != std::string_view::npos) return std::nullopt;
    size_t eq = item.find('=');
    auto key = base::QueryUnescape(item.substr(0, eq));
    auto value = base::QueryUnescape(eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1));
    if (!key || !value) return std::nullopt;
    out[*key].push_back(*value);
  }
  return out;
}

// Go's strconv.Atoi: an optional sign and decimal digits.
std::optional<long> ParseInt(const std::string& s) {
  size_t start = !s.empty() && (s[0] == '+' || s[0] == '-') ? 1 : 0;
  if (start == s.size() || s.size() - start > 18) return std::nullopt;
  for (size_t i = start; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
  return std::stol(s);
}

// "20060102T150405Z", a real date and time.
std::optional<Clock::time_point> ParseAmzDate(const std::string& text) {
  if (text.size() != 16 || text[8] != 'T' || text[15] != 'Z') return std::nullopt;
  for (size_t i = 0; i < 15; ++i)
    if (i != 8 && !std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
  std::tm tm{};
  tm.tm_year = std::stoi(text.substr(0, 4)) - 1900;
  tm.tm_mon = std::stoi(text.substr(4, 2)) - 1;
  tm.tm_mday = std::stoi(text.substr(6, 2));
  tm.tm_hour = std::stoi(text.substr(9, 2));
  tm.tm_min = std::stoi(text.substr(11, 2));
  tm.tm_sec = std::stoi(text.substr(13, 2));
  std::tm normalized = tm;
  std::time_t t = timegm(&normalized);
  if (normalized.tm_mon != tm.tm_mon || normalized.tm_mday != tm.tm_mday || normalized.tm_hour != tm.tm_hour ||
      normalized.tm_min != tm.tm_min || normalized.tm_sec != tm.tm_sec)
    return std::nullopt;
  return Clock::from_time_t(t);
}

bool IsOwnStsHost(const std::string& host, const EksTokenOptions& options) {
  return std::find(options.own_sts_hosts.begin(), options.own_sts_hosts.end(), host) != options.own_sts_hosts.end();
}

bool SignsClusterHeader(const std::string& signed_headers) {
  size_t start = 0;
  while (start <= signed_headers.size()) {
    size_t end = signed_headers.find(';', start);
    if (end == std::string::npos) end = signed_headers.size();
    if (Lower(signed_headers.substr(start, end - start)) == kClusterIdHeader) return true;
    start = end + 1;
  }
  return false;
}

// What STS checks of the key before the signature: that it issued it, with this session
// token, and that it has not expired.
std::optional<std::string> KeyProblem(const std::optional<AccessKeyRecord>& key, const std::string& session_token,
                                      Clock::time_point now) {
  if (!key) return "InvalidClientTokenId: The security token included in the request is invalid.";
  if (key->session_token != session_token) {
    return key->session_token.empty()
               ? "InvalidClientTokenId: The security token included in the request is invalid."
               : "InvalidClientTokenId: the access key is temporary and the pre-signed URL carries no or "
                 "another X-Amz-Security-Token than the one issued with it.";
  }
  if (key->expiration && now >= *key->expiration)
    return "ExpiredToken: The security token included in the request is expired";
  return std::nullopt;
}

}  // namespace

TokenVerification VerifyEksToken(std::string_view token, const EksTokenOptions& options,
                                 const AccessKeyLookup& keys, Clock::time_point now) {
  // --- what aws-iam-authenticator's Verify checks before it calls STS ----------------------
  if (token.size() > kMaxEksTokenBytes) return Format("token is too large");
  if (token.substr(0, kEksTokenPrefix.size()) != kEksTokenPrefix)
    return Format("token is missing expected \"k8s-aws-v1.\" prefix");
  std::optional<std::string> url_text = DecodeRawUrlBase64(token.substr(kEksTokenPrefix.size()));
  if (!url_text) return Format("illegal base64 data (the token must be unpadded base64url)");
  aws::Url url;
  if (!aws::ParseUrl(*url_text, &url)) return Format("the token does not hold a URL");
  bool own_host = IsOwnStsHost(url.host, options);
  if (url.scheme != "https" && !(own_host && url.scheme == "http"))
    return Format("unexpected scheme \"" + url.scheme + "\" in pre-signed URL");
  std::optional<std::string> host_region;
  if (!own_host) {
    std::string why;
    host_region = StsHostRegion(url.HostHeader(), options.partition, &why);
    if (!host_region) return Format(why);
  }
  if (url.path != "/") return Format("unexpected path in pre-signed URL");
  auto params = ParseQueryValues(url.query);
  if (!params) return Format("malformed query parameter");
  std::map<std::string, std::string> lower;  // lower-case key -> its one value
  for (const auto& [key, values] : *params) {
    if (lower.count(Lower(key))) return Format("duplicate query parameter found: \"" + key + "\"");
    lower[Lower(key)] = values.front();
  }
  for (const auto& [key, values] : *params) {
    if (!kAllowedParameters.count(Lower(key))) return Format("non-whitelisted query parameter \"" + key + "\"");
    if (values.size() != 1) return Format("query parameter with multiple values not supported");
  }
  if (lower["action"] != "GetCallerIdentity") return Format("unexpected action parameter in pre-signed URL");
  if (!SignsClusterHeader(lower["x-amz-signedheaders"]))
    return Format("client did not sign the x-k8s-aws-id header in the pre-signed URL");
  std::optional<long> expires = ParseInt(lower["x-amz-expires"]);
  if (!expires || *expires < 0 || *expires > 900) {
    return Format("invalid X-Amz-Expires parameter in pre-signed URL: " + std::to_string(expires.value_or(0)));
  }
  const std::string& date = lower["x-amz-date"];
  if (date.empty()) return Format("X-Amz-Date parameter must be present in pre-signed URL");
  std::optional<Clock::time_point> signed_at = ParseAmzDate(date);
  if (!signed_at) {
    return Format("error parsing X-Amz-Date parameter " + date + " into format 20060102T150405Z");
  }
  if (now > *signed_at + kPresignedUrlLifetime)
    return Format("X-Amz-Date parameter is expired (15 minute expiration) " + date);

  // --- what STS checks when the URL is replayed with "x-k8s-aws-id: <cluster>" -------------
  if (*signed_at > now + kPresignedUrlLifetime)
    return Sts("SignatureDoesNotMatch: Signature not yet current: X-Amz-Date " + date + " is more than 15 minutes ahead");
  ReceivedRequest received{"GET", url.path + "?" + url.query,
                           {{"host", url.HostHeader()}, {kClusterIdHeader, options.cluster}}, ""};
  SigV4Check check;
  std::optional<SigV4Auth> auth = ParseSigV4(received, &check);
  if (!auth) return Sts("IncompleteSignature: " + check.message);
  if (auth->service != "sts") return Sts("SignatureDoesNotMatch: Credential should be scoped to correct service: 'sts'.");
  if (host_region && auth->region != *host_region)
    return Sts("SignatureDoesNotMatch: Credential should be scoped to a valid region.");
  std::optional<AccessKeyRecord> key = keys ? keys(auth->access_key) : std::nullopt;
  auto token_param = lower.find("x-amz-security-token");
  if (auto problem = KeyProblem(key, token_param == lower.end() ? "" : token_param->second, now))
    return Sts(*problem);
  SigV4Check verified = VerifySigV4(*auth, received, key->secret_access_key, now);
  if (verified.problem == SigV4Problem::Mismatch) {
    return Sts("SignatureDoesNotMatch: " + verified.message + " (the token must be made for the cluster \"" +
               options.cluster + "\": its x-k8s-aws-id is signed)");
  }
  if (verified.problem != SigV4Problem::None) return Sts("SignatureDoesNotMatch: " + verified.message);

  TokenVerification result;
  result.identity = TokenIdentity{key->identity, auth->access_key, url.HostHeader()};
  return result;
}

}  // namespace strata::sandbox::k8s_auth
