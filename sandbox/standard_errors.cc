#include "sandbox/standard_errors.h"

namespace strata::sandbox {

ErrorInfo ThrottlingError(Protocol protocol) {
  switch (protocol) {
    case Protocol::Ec2Query:
      return {503, "RequestLimitExceeded", "Request limit exceeded."};
    case Protocol::Query:
      return {400, "Throttling", "Rate exceeded"};
    case Protocol::RestJson:
      return {429, "ThrottlingException", "Rate exceeded"};
    case Protocol::AwsJson:
      return {400, "ThrottlingException", "Rate exceeded"};
    case Protocol::RestXml:
      return {503, "SlowDown", "Please reduce your request rate."};
  }
  return {400, "Throttling", "Rate exceeded"};
}

ErrorInfo InternalError(Protocol protocol, const std::string& message) {
  if (protocol == Protocol::RestJson || protocol == Protocol::AwsJson) return {500, "InternalFailure", message};
  return {500, "InternalError", message};
}

ErrorInfo UnknownAccessKeyError(Protocol protocol) {
  switch (protocol) {
    case Protocol::Ec2Query:
      return {401, "AuthFailure", "AWS was not able to validate the provided access credentials"};
    case Protocol::Query:
      return {403, "InvalidClientTokenId", "The security token included in the request is invalid."};
    case Protocol::RestJson:
      return {403, "UnrecognizedClientException", "The security token included in the request is invalid."};
    case Protocol::AwsJson:
      return {400, "UnrecognizedClientException", "The security token included in the request is invalid."};
    case Protocol::RestXml:
      return {403, "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records."};
  }
  return {403, "InvalidClientTokenId", "The security token included in the request is invalid."};
}

ErrorInfo SignatureError(Protocol protocol, const SigV4Check& check) {
  bool json = protocol == Protocol::RestJson || protocol == Protocol::AwsJson;
  switch (check.problem) {
    case SigV4Problem::Missing:
      return json ? ErrorInfo{403, "MissingAuthenticationTokenException", "Missing Authentication Token"}
                  : ErrorInfo{403, "MissingAuthenticationToken", check.message};
    case SigV4Problem::Malformed:
      return {400, json ? "IncompleteSignatureException" : "IncompleteSignature", check.message};
    case SigV4Problem::Expired:
    case SigV4Problem::Mismatch:
    case SigV4Problem::None:
      break;
  }
  return {403, json ? "InvalidSignatureException" : "SignatureDoesNotMatch", check.message};
}

}  // namespace strata::sandbox
