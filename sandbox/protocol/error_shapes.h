#pragma once
// AWS's error shapes, one renderer per protocol, so a refusal reads to a client (ours,
// botocore) exactly as AWS's would, with the refusal's HTTP status:
//   EC2        <Response><Errors><Error><Code/><Message/></Error></Errors><RequestID/></Response>
//   IAM / STS  <ErrorResponse
//   xmlns=...><Error><Type/><Code/><Message/></Error><RequestId/></ErrorResponse>
//              (Type: "Receiver" for a 5xx status, "Sender" otherwise)
//   REST-JSON  x-amzn-ErrorType: <Code> and {"message": "..."}
//   awsJson    {"__type": "<Code>", "message": "..."} as application/x-amz-json-1.x
//   Route 53   <ErrorResponse xmlns=...><Error><Type/><Code/><Message/></Error><RequestId/></ErrorResponse>
//   S3         <Error><Code/><Message/><RequestId/></Error> (no body at all for a HEAD)
// Every one carries the x-amzn-RequestId header. XML errors are text/xml on one line.

#include <string>

#include "sandbox/protocol/api_error.h"
#include "sandbox/protocol/response.h"

namespace strata::sandbox {

Response RenderEc2Error(const ErrorInfo& error, const std::string& request_id);
//! `xml_namespace`: the service's, e.g. "https://sts.amazonaws.com/doc/2011-06-15/".
Response RenderQueryError(const ErrorInfo& error, const std::string& xml_namespace,
                          const std::string& request_id);
Response RenderRestJsonError(const ErrorInfo& error, const std::string& request_id);
//! S3's REST-XML error (x-amz-request-id beside x-amzn-RequestId). `method`: a HEAD is
//! answered with the status and headers alone, as S3 does.
Response RenderS3Error(const ErrorInfo& error, const std::string& method, const std::string& request_id);
//! `json_version`: "1.0" or "1.1", the service's.
Response RenderAwsJsonError(const ErrorInfo& error, const std::string& json_version, const std::string& request_id);

}  // namespace strata::sandbox
