#pragma once
// The errors the front end itself answers with, before any service sees the call, in
// each protocol's own words: throttling, internal faults, and authentication failures.

#include "sandbox/error_render.h"
#include "sandbox/service.h"
#include "sandbox/sigv4_verifier.h"

namespace strata::sandbox {

//! EC2: 503 RequestLimitExceeded; IAM/STS: 400 Throttling; REST-JSON: 429 ThrottlingException.
ErrorInfo ThrottlingError(Protocol protocol);
//! 500 InternalError (query protocols) or InternalFailure (REST-JSON).
ErrorInfo InternalError(Protocol protocol, const std::string& message);
//! The access key is not the sandbox's: 403 InvalidClientTokenId (IAM/STS),
//! UnrecognizedClientException (REST-JSON); EC2 says 401 AuthFailure, as AWS does.
ErrorInfo UnknownAccessKeyError(Protocol protocol);
//! A signature that is missing, malformed, expired or wrong (`check.problem` != None).
ErrorInfo SignatureError(Protocol protocol, const SigV4Check& check);

}  // namespace strata::sandbox
