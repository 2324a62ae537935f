// Amazon CloudWatch's dashboards (signing name "monitoring") as the sandbox serves them:
// PutDashboard, GetDashboard, ListDashboards, DeleteDashboards. CloudWatch offers three
// protocols (Smithy RPC v2 CBOR, awsJson 1.0, awsQuery); the AWS CLI here (botocore 1.43)
// picks awsJson 1.0 (target prefix GraniteServiceVersion20100801), and so does the provider,
// so that is what is served. The API is awsQueryCompatible: clients read an error's code as
// the query protocol names it ("ResourceNotFound", "InvalidParameterInput"), which is the
// __type written here.
//
// A dashboard body must be a JSON object whose "widgets" is an array, as PutDashboard
// checks; metrics are not kept (nothing in Strata publishes any).
//
// Storage: World documents under "cloudwatch.dashboard" keyed by name (dashboards are
// global: their ARN names no region), with "DashboardName", "DashboardArn",
// "DashboardBody" and "LastModified".

#include <algorithm>
#include <cctype>

#include "sandbox/json_service.h"

namespace strata::sandbox {
namespace cloudwatch {
namespace {

constexpr const char* kDashboardKind = "cloudwatch.dashboard";

ApiError DashboardNotFound(const std::string& name) {
  return ApiError(404, "ResourceNotFound", "Dashboard " + name + " does not exist");
}

ApiError DashboardInvalid(const std::string& message) { return ApiError(400, "InvalidParameterInput", message); }

void CheckDashboardName(const std::string& name) {
  bool ok = !name.empty() && name.size() <= 255;
  for (char c : name) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_');
  if (!ok) {
    throw DashboardInvalid("The value for field DashboardName contains invalid characters. It can only contain "
                           "alphanumerics, dash (-) and underscore (_).");
  }
}

Json PutDashboard(JsonCall& call) {
  std::string name = RequiredJsonString(call.input, "DashboardName");
  CheckDashboardName(name);
  std::string body = RequiredJsonString(call.input, "DashboardBody");
  Json parsed = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    throw DashboardInvalid("The field DashboardBody must be a valid JSON object");
  }
  if (parsed.contains("widgets") && !parsed["widgets"].is_array()) {
    throw DashboardInvalid("The dashboard body is invalid, there are 1 validation errors: [ { \"dataPath\": "
                           "\"/widgets\", \"message\": \"Should be array\" } ]");
  }
  call.world().Put(kDashboardKind, name,
                   {{"DashboardName", name},
                    {"DashboardArn", "arn:aws:cloudwatch::" + call.account() + ":dashboard/" + name},
                    {"DashboardBody", body},
                    {"LastModified", EpochSeconds(call.ctx.now)}});
  return Json{{"DashboardValidationMessages", Json::array()}};
}

Json GetDashboard(JsonCall& call) {
  std::string name = RequiredJsonString(call.input, "DashboardName");
  std::optional<Json> dashboard = call.world().Get(kDashboardKind, name);
  if (!dashboard) throw DashboardNotFound(name);
  dashboard->erase("LastModified");
  return *dashboard;
}

Json ListDashboards(JsonCall& call) {
  std::string prefix = OptionalJsonString(call.input, "DashboardNamePrefix");
  std::vector<Json> entries;
  for (const auto& [name, dashboard] : call.world().ListPrefix(kDashboardKind, prefix)) {
    entries.push_back({{"DashboardName", dashboard["DashboardName"]},
                       {"DashboardArn", dashboard["DashboardArn"]},
                       {"LastModified", dashboard["LastModified"]},
                       {"Size", dashboard["DashboardBody"].get<std::string>().size()}});
  }
  Json out = Json::object();
  AnswerJsonPage(call.input, {"NextToken", "dashboards-page-", ApiError(400, "InvalidParameterValue", "The NextToken is invalid.")},
                 entries, 1000, "DashboardEntries", out);
  return out;
}

Json DeleteDashboards(JsonCall& call) {
  std::vector<std::string> names;
  if (call.input.contains("DashboardNames") && call.input["DashboardNames"].is_array()) {
    for (const Json& name : call.input["DashboardNames"]) {
      if (name.is_string()) names.push_back(name.get<std::string>());
    }
  }
  if (names.empty()) throw ApiError(400, "InvalidParameterValue", "DashboardNames must name at least one dashboard.");
  // All or nothing: one unknown name deletes none.
  for (const std::string& name : names) {
    if (!call.world().Get(kDashboardKind, name)) throw DashboardNotFound(name);
  }
  for (const std::string& name : names) call.world().Erase(kDashboardKind, name);
  return Json::object();
}

}  // namespace
}  // namespace cloudwatch

std::unique_ptr<Service> NewCloudWatchService() {
  JsonActionTable actions = {{"PutDashboard", cloudwatch::PutDashboard},
                             {"GetDashboard", cloudwatch::GetDashboard},
                             {"ListDashboards", cloudwatch::ListDashboards},
                             {"DeleteDashboards", cloudwatch::DeleteDashboards}};
  return NewJsonService("monitoring", {"GraniteServiceVersion20100801", "1.0"}, std::move(actions));
}

}  // namespace strata::sandbox
