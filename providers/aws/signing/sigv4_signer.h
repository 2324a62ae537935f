#pragma once
// AWS Signature Version 4 (AWS4-HMAC-SHA256): Authorization-header signing and
// presigned URLs (query-string signing); the canonical request and signature themselves are
// sigv4_canonical.h's, shared with the sandbox's verifier. Checked against the AWS test suites in
// shared/testdata/sigv4 (tests/unit/aws/sigv4_vectors_test.cc).

#include <chrono>
#include <optional>
#include <string>

#include "providers/aws/signing/credentials.h"
#include "providers/aws/core/clock.h"
#include "providers/aws/core/result.h"
#include "providers/aws/http/http_types.h"
#include "providers/aws/signing/sigv4_canonical.h"

namespace strata::aws {

//! How to sign. The defaults are those of every service but S3.
struct SigningOptions {
  std::string region;   //!< signing region, e.g. "us-east-1"
  std::string service;  //!< signing name, e.g. "sts", "eks", "elasticloadbalancing"
  TimePoint time;       //!< the request time (X-Amz-Date)

  //! Remove "." / ".." segments and collapse repeated slashes in the canonical URI.
  //! S3 must set this to false (object keys like "a//b" are significant).
  bool normalize_path = true;
  //! Percent-encode the (already wire-encoded) path once more for the canonical URI,
  //! as SigV4 prescribes for every service but S3. S3 sets this to false.
  bool double_encode_path = true;
  //! With a session token: true adds X-Amz-Security-Token before signing (it is
  //! signed; what STS, EKS and nearly all services need); false adds it afterwards.
  bool sign_session_token = true;
  //! Add and sign "x-amz-content-sha256: <payload hash>" (S3; header signing only).
  bool add_content_sha256_header = false;
  //! Payload hash to use instead of SHA-256(body), e.g. "UNSIGNED-PAYLOAD".
  std::optional<std::string> payload_hash;
};

//! The intermediate products of a signature, for tests and debug logs (no secrets:
//! the session token may appear in a canonical request, so treat it as sensitive).
struct SignatureDetails {
  std::string canonical_request;
  std::string string_to_sign;
  std::string signature;       //!< lower-case hex
  std::string signed_headers;  //!< "host;x-amz-date"
  std::string credential_scope;  //!< "20150830/us-east-1/service/aws4_request"
  std::string authorization;   //!< the Authorization header value (header signing only)
};

//! Signs `request` in place: sets X-Amz-Date, X-Amz-Security-Token (when the
//! credentials have a token), x-amz-content-sha256 (when asked) and Authorization.
//! Every header present in the request is signed, except hop-by-hop/agent headers
//! (User-Agent, Expect, Connection, Transfer-Encoding, X-Amzn-Trace-Id); the Host
//! header is taken from the URL when the request does not carry one.
//! Fails only when the URL cannot be parsed.
Result<SignatureDetails> SignRequest(HttpRequest& request, const Credentials& creds,
                                     const SigningOptions& options);

//! Presigns `request` in place: rewrites its URL's query to the canonical (sorted)
//! query string plus X-Amz-Algorithm/Credential/Date/Expires/SignedHeaders
//! [/Security-Token], followed by X-Amz-Signature. The request's headers are signed
//! (and must be sent, or re-added by whoever replays the URL). No header is added.
Result<SignatureDetails> PresignRequest(HttpRequest& request, const Credentials& creds,
                                        const SigningOptions& options,
                                        std::chrono::seconds expires);

//! The canonical URI of a wire path under `options` (exposed for tests).
std::string CanonicalUri(std::string_view path, const SigningOptions& options);

}  // namespace strata::aws
