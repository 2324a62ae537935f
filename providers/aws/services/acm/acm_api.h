#pragma once
// Calling AWS Certificate Manager (awsJson 1.1, target prefix CertificateManager; regional,
// endpoint override key "acm") from a type.

#include <string>

#include <nlohmann/json.hpp>

#include "providers/aws/common/aws_session.h"

namespace strata::aws {

//! Sends the ACM action `operation` with `body` (CallOptionsFor(ctx)).
Result<nlohmann::json> CallAcm(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                               const nlohmann::json& body);

}  // namespace strata::aws
