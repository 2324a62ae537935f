#pragma once
// AWS's error shapes, one renderer per protocol, so a refusal reads to a client (ours,
// botocore) exactly as AWS's would:
//   EC2        <Response><Errors><Error><Code/><Message/></Error></Errors><RequestID/></Response>
//   IAM / STS  <ErrorResponse xmlns=...><Error><Type/><Code/><Message/></Error><RequestId/></ErrorResponse>
//   REST-JSON  x-amzn-ErrorType: <Code> and {"message": "..."}
// Every answer, error or not, carries x-amzn-RequestId.

#include <string>

#include "sandbox/service.h"

namespace strata::sandbox {

//! One refusal, before it is put into a protocol's shape.
struct ErrorInfo {
  int status = 400;
  std::string code;
  std::string message;
};

Response RenderEc2Error(const ErrorInfo& error, const std::string& request_id);
//! `xml_namespace`: the service's, e.g. "https://sts.amazonaws.com/doc/2011-06-15/".
Response RenderQueryError(const ErrorInfo& error, const std::string& xml_namespace,
                          const std::string& request_id);
Response RenderRestJsonError(const ErrorInfo& error, const std::string& request_id);

//! The XML namespace of a query service's documents ("iam", "sts"); IAM's for others.
std::string QueryNamespace(const std::string& service);

//! Renders `error` in the protocol of `service` (its name picks the query namespace).
Response RenderError(Protocol protocol, const std::string& service, const ErrorInfo& error,
                     const std::string& request_id);

}  // namespace strata::sandbox
