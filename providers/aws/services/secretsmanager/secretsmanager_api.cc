#include "providers/aws/services/secretsmanager/secretsmanager_api.h"

#include "providers/aws/common/json_rpc_call.h"

namespace strata::aws {

Result<nlohmann::json> CallSecretsManager(const AwsSession& session, const OperationContext& ctx,
                                          const std::string& operation, const nlohmann::json& body,
                                          const CallOptions& options) {
  return CallJsonRpc(session, ctx, {"secretsmanager", "secretsmanager"}, operation, body, options);
}

Result<nlohmann::json> CallSecretsManager(const AwsSession& session, const OperationContext& ctx,
                                          const std::string& operation, const nlohmann::json& body) {
  return CallSecretsManager(session, ctx, operation, body, CallOptionsFor(ctx));
}

bool SecretGone(const AwsError& error) {
  // AWS says "... because it was marked for deletion."; others say "... marked deleted."
  return error.code == kSecretsManagerNotFound ||
         (error.code == "InvalidRequestException" && error.message.find("marked") != std::string::npos &&
          error.message.find("delet") != std::string::npos);
}

std::vector<std::string> SecretVersionStages(const nlohmann::json& version) {
  std::vector<std::string> stages;
  auto it = version.find("VersionStages");
  if (it == version.end() || !it->is_array()) return stages;
  for (const nlohmann::json& stage : *it) {
    if (stage.is_string()) stages.push_back(stage.get<std::string>());
  }
  return stages;
}

nlohmann::json SecretTagList(const TagMap& tags) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [key, value] : tags) out.push_back({{"Key", key}, {"Value", value}});
  return out;
}

}  // namespace strata::aws
