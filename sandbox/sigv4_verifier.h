#pragma once
// The server side of AWS Signature Version 4: finds a request's signature (the
// Authorization header, or a presigned URL's X-Amz-* query parameters, as in EKS tokens)
// and checks it by recomputing the canonical request from what was received, exactly as
// AWS does: the raw (still encoded) path and query, the headers the client says it signed
// and the payload hash. Canonicalization reuses the client's helpers (providers/aws).

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace strata::sandbox {

//! What a request says about its own signature.
struct SigV4Auth {
  bool presigned = false;  //!< from the query string rather than the Authorization header
  std::string access_key;
  std::string date;     //!< credential scope date, "20260101"
  std::string region;   //!< "us-east-1"
  std::string service;  //!< "sts"
  std::vector<std::string> signed_headers;  //!< lower case, as listed
  std::string signature;                    //!< lower-case hex
  std::string amz_date;                     //!< "20260101T120000Z" (X-Amz-Date)
  std::optional<long> expires_seconds;      //!< X-Amz-Expires (presigned only)
};

//! A request as received, for checking its signature.
struct ReceivedRequest {
  std::string method;
  std::string target;  //!< raw request target: encoded path [ "?" encoded query ]
  //! Header names in lower case; repeated headers joined with ','.
  std::map<std::string, std::string> headers;
  std::string body;
};

//! Why a signature was not found or not accepted.
enum class SigV4Problem {
  None,
  Missing,    //!< no Authorization header and no X-Amz-Signature
  Malformed,  //!< present but unparseable (no credential scope, unknown algorithm)
  Expired,    //!< X-Amz-Date too far from now, or a presigned URL past its expiry
  Mismatch,   //!< the recomputed signature differs
};

struct SigV4Check {
  SigV4Problem problem = SigV4Problem::None;
  std::string message;  //!< for the error response; empty when accepted
  // The intermediate products, to help whoever debugs a mismatch.
  std::string canonical_request;
  std::string string_to_sign;
};

//! Finds the signature of `request`. Missing or Malformed (with a message) when there is
//! none or it cannot be read; the credential scope alone is enough to route a request.
std::optional<SigV4Auth> ParseSigV4(const ReceivedRequest& request, SigV4Check* problem);

//! Checks `auth` against `request` with `secret_key`. The request time must be within
//! 15 minutes of `now` (AWS's allowed skew); a presigned URL is also refused once its
//! X-Amz-Expires has passed, but never before 15 minutes (how STS treats EKS tokens).
SigV4Check VerifySigV4(const SigV4Auth& auth, const ReceivedRequest& request,
                       const std::string& secret_key, std::chrono::system_clock::time_point now);

}  // namespace strata::sandbox
