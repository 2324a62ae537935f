#pragma once
// Which of AWS's error shapes (sandbox/protocol/error_shapes.h) a refusal takes: the one of
// the service's protocol, with the query services' XML namespace picked by service name.
// Every answer, error or not, carries x-amzn-RequestId.

#include <string>

#include "sandbox/protocol/error_shapes.h"
#include "sandbox/service.h"

namespace strata::sandbox {

//! The XML namespace of a query service's documents ("iam", "sts", "autoscaling"); IAM's for
//! others.
std::string QueryNamespace(const std::string& service);

//! The awsJson version of a JSON service ("sqs": "1.0"; "1.1" for the others).
std::string AwsJsonVersion(const std::string& service);

//! Renders `error` in the protocol of `service` (its name picks the query namespace, and
//! S3's shape among the REST-XML services; `method` matters to S3's HEAD requests only).
Response RenderError(Protocol protocol, const std::string& service, const ErrorInfo& error,
                     const std::string& request_id, const std::string& method = "");

}  // namespace strata::sandbox
