#pragma once
// Maps failed HTTP exchanges of every AWS protocol onto AwsError:
//   query/XML   <ErrorResponse><Error><Code/><Message/></Error><RequestId/></ErrorResponse>
//   EC2         <Response><Errors><Error><Code/><Message/></Error></Errors><RequestID/></Response>
//   REST-XML    <Error><Code/><Message/><RequestId/></Error>               (S3, Route 53)
//   JSON        {"__type": "ns#Code", "message": "..."}, {"code": ...}, x-amzn-ErrorType header

#include "providers/aws/core/aws_error.h"
#include "providers/aws/http/http_types.h"

namespace strata::aws {

//! Builds the AwsError of a non-2xx response. The body format is detected (XML when it
//! starts with '<', else JSON); an unparseable or empty body gives a code derived from
//! the status. `retryable` is set by IsRetryableServiceError.
AwsError ParseErrorResponse(const HttpResponse& response);

//! Builds the AwsError of a transport failure: connection errors and timeouts are
//! retryable, TLS errors are not.
AwsError ErrorFromTransport(const TransportError& error);

//! The request id of a response: x-amzn-RequestId, x-amz-request-id or x-amz-id-2.
std::string RequestIdFromHeaders(const HttpHeaders& headers);

//! Normalizes a JSON error type: "com.amazon.coral#ThrottlingException" and
//! "ThrottlingException:http://internal.amazon.com/..." both give "ThrottlingException".
std::string SanitizeErrorCode(std::string_view raw);

}  // namespace strata::aws
