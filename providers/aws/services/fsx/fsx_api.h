#pragma once
// Calling Amazon FSx (awsJson 1.1, target prefix AWSSimbaAPIService_v20180301, signing name
// "fsx"; endpoint override key "fsx") from a resource type.

#include <string>

#include <nlohmann/json.hpp>

#include "providers/aws/common/aws_session.h"

namespace strata::aws {

inline constexpr const char* kFsxFileSystemNotFound = "FileSystemNotFound";

//! Sends the FSx action `operation` with `body`, with the context's deadline and cancellation.
Result<nlohmann::json> CallFsx(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                               const nlohmann::json& body);

//! Whether `capacity` GiB is a storage capacity FSx for Lustre takes for `deployment_type`
//! (SSD): 1200, 2400, then multiples of 3600 for SCRATCH_1 and of 2400 for SCRATCH_2,
//! PERSISTENT_1 and PERSISTENT_2. `rule` gets the rule in words.
bool ValidLustreCapacity(double capacity, const std::string& deployment_type, std::string* rule);

}  // namespace strata::aws
