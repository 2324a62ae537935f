#pragma once
// What the two sides of AWS Signature Version 4 compute alike: the canonical request, the
// string to sign and the signature over it. The client signer (sigv4_signer.cc) builds them
// from the request it is about to send; the sandbox's verifier (sandbox/sigv4_verifier.cc)
// rebuilds them from the request it received and the headers the client says it signed.
// One construction, so that the two cannot drift apart.
//
// Contract: pure functions of their arguments (no clock, no I/O); they never fail. The
// caller decides which headers are signed and in which order, and computes the canonical URI
// (CanonicalUri in sigv4_signer.h) and the payload hash.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "providers/aws/http/url.h"

namespace strata::aws {

inline constexpr std::string_view kSigV4Algorithm = "AWS4-HMAC-SHA256";

//! A header value as signed: trimmed, runs of whitespace (obs-fold line breaks too)
//! collapsed to one space.
std::string CanonicalHeaderValue(std::string_view value);

struct CanonicalHeaders {
  std::string block;         //!< "name:value\n" per signed header
  std::string signed_names;  //!< "host;x-amz-date"
};
//! Joins headers given as (lower-case name, canonical value), in signing order.
CanonicalHeaders JoinCanonicalHeaders(const std::vector<std::pair<std::string, std::string>>& headers);

//! The canonical query string: names and values UriEncoded, sorted, joined as "k=v&...".
std::string CanonicalQuery(QueryParams params);

//! method, URI, query, headers, signed names and payload hash, one per line.
std::string CanonicalRequest(std::string_view method, std::string_view canonical_uri,
                             std::string_view canonical_query, const CanonicalHeaders& headers,
                             std::string_view payload_hash);

//! "20150830/us-east-1/service/aws4_request"
std::string CredentialScope(std::string_view date_stamp, std::string_view region,
                            std::string_view service);

//! The algorithm, the request time ("20150830T123600Z"), the scope and the hex SHA-256 of
//! the canonical request, one per line.
std::string StringToSign(std::string_view amz_date, std::string_view scope,
                         std::string_view canonical_request);

//! The SigV4 signing key: HMAC chain over date, region, service, "aws4_request".
std::string DeriveSigningKey(std::string_view secret, std::string_view date_stamp,
                             std::string_view region, std::string_view service);

//! The signature (lower-case hex) of `string_to_sign` under the key of secret and scope.
std::string SignatureHex(std::string_view secret, std::string_view date_stamp,
                         std::string_view region, std::string_view service,
                         std::string_view string_to_sign);

}  // namespace strata::aws
