#include "providers/aws/signing/sigv4_canonical.h"

#include <algorithm>

#include "engine/base/hash.h"
#include "engine/base/hex.h"

namespace strata::aws {

std::string CanonicalHeaderValue(std::string_view value) {
  std::string out;
  bool pending_space = false;
  for (char c : value) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out += c;
  }
  return out;
}

CanonicalHeaders JoinCanonicalHeaders(const std::vector<std::pair<std::string, std::string>>& headers) {
  CanonicalHeaders out;
  for (const auto& [name, value] : headers) {
    out.block += name + ":" + value + "\n";
    if (!out.signed_names.empty()) out.signed_names += ';';
    out.signed_names += name;
  }
  return out;
}

std::string CanonicalQuery(QueryParams params) {
  for (auto& [k, v] : params) {
    k = UriEncode(k);
    v = UriEncode(v);
  }
  std::sort(params.begin(), params.end());
  std::string out;
  for (const auto& [k, v] : params) {
    if (!out.empty()) out += '&';
    out += k + "=" + v;
  }
  return out;
}

std::string CanonicalRequest(std::string_view method, std::string_view canonical_uri,
                             std::string_view canonical_query, const CanonicalHeaders& headers,
                             std::string_view payload_hash) {
  std::string out;
  for (std::string_view part : {method, canonical_uri, canonical_query,
                                std::string_view(headers.block), std::string_view(headers.signed_names)}) {
    out.append(part).append(1, '\n');
  }
  return out.append(payload_hash);
}

std::string CredentialScope(std::string_view date_stamp, std::string_view region,
                            std::string_view service) {
  return std::string(date_stamp) + "/" + std::string(region) + "/" + std::string(service) +
         "/aws4_request";
}

std::string StringToSign(std::string_view amz_date, std::string_view scope,
                         std::string_view canonical_request) {
  return std::string(kSigV4Algorithm) + "\n" + std::string(amz_date) + "\n" + std::string(scope) +
         "\n" + base::Sha256Hex(canonical_request);
}

std::string DeriveSigningKey(std::string_view secret, std::string_view date_stamp,
                             std::string_view region, std::string_view service) {
  std::string k_date = base::HmacSha256("AWS4" + std::string(secret), date_stamp);
  std::string k_region = base::HmacSha256(k_date, region);
  std::string k_service = base::HmacSha256(k_region, service);
  return base::HmacSha256(k_service, "aws4_request");
}

std::string SignatureHex(std::string_view secret, std::string_view date_stamp,
                         std::string_view region, std::string_view service,
                         std::string_view string_to_sign) {
  std::string key = DeriveSigningKey(secret, date_stamp, region, service);
  return base::HexEncode(base::HmacSha256(key, string_to_sign));
}

}  // namespace strata::aws
