// aws_cloudwatch_dashboard: a CloudWatch dashboard, over PutDashboard / GetDashboard /
// DeleteDashboards, with Terraform's attributes. The id is the name; a new name is a new
// dashboard, a new body is PutDashboard in place. `dashboard_body` is compared as JSON, as
// Terraform compares it: a body that parses to the same document (keys in any order, any
// whitespace; arrays in order) is no change, and the text written in the configuration is
// what state keeps.
//
// PutDashboard creates or overwrites and takes no token. The name is the natural key: after
// an interruption, the dashboard of the planned name whose body is the planned body is this
// create's (a dashboard of that name with another body is someone else's).

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/cloudwatch/cloudwatch_api.h"
#include "providers/aws/services/cloudwatch/cloudwatch_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

//! Whether two dashboard bodies are the same JSON document (text that is not JSON compares
//! as text).
bool SameDashboardBody(const std::string& a, const std::string& b) {
  json pa = json::parse(a, nullptr, false), pb = json::parse(b, nullptr, false);
  if (pa.is_discarded() || pb.is_discarded()) return a == b;
  return pa == pb;
}

class AwsCloudwatchDashboard final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_cloudwatch_dashboard", {{"dashboard_name", Required("string", true)},
                                                      {"dashboard_body", Required("string")},
                                                      {"dashboard_arn", Computed("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }
  std::vector<std::string> RecoveryKey() const override { return {"dashboard_name"}; }

  Diagnostics Validate(const Value& config) const override {
    Value body = Get(config, "dashboard_body");
    if (!body.IsString()) return {};
    json parsed = json::parse(body.AsString(), nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) {
      return Error("Invalid dashboard_body", "dashboard_body must be a JSON object such as {\"widgets\": [...]}.");
    }
    return {};
  }

  PlanResult Plan(const OperationContext& ctx, const Value& prior, const Value& proposed,
                  const Value& config) const override {
    Value adjusted = proposed;
    Value old_body = Get(prior, "dashboard_body"), new_body = Get(proposed, "dashboard_body");
    if (old_body.IsString() && new_body.IsString() && SameDashboardBody(old_body.AsString(), new_body.AsString())) {
      adjusted = With(adjusted, "dashboard_body", old_body);
    }
    return AwsResourceType::Plan(ctx, prior, adjusted, config);
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string name = GetString(planned, "dashboard_name");
    Result<json> put = CallCloudWatch(*session_, ctx, "PutDashboard",
                                      {{"DashboardName", name}, {"DashboardBody", GetString(planned, "dashboard_body")}});
    if (!put.ok()) return CreateFailed("PutDashboard", put.error());
    return ReadAfterWrite(ctx, planned, name, {});
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    return ReadDashboard(ctx, GetString(prior, "id", GetString(prior, "dashboard_name")), prior);
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string name = GetString(prior, "id");
    return ReadAfterWrite(ctx, planned, name, Put(ctx, name, planned));
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    Result<json> done = CallCloudWatch(*session_, ctx, "DeleteDashboards", {{"DashboardNames", {GetString(prior, "id")}}});
    if (!done.ok() && !IsDashboardNotFound(done.error())) return {AwsErrorDiag("DeleteDashboards", done.error())};
    return {};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override { return ImportById(ctx, id); }

 protected:
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    std::string name = GetString(planned, "dashboard_name");
    ReadResult found = ReadDashboard(ctx, name, planned);
    if (found.gone || found.diags.HasErrors()) return found;
    if (SameDashboardBody(GetString(found.state, "dashboard_body"), GetString(planned, "dashboard_body"))) return found;
    return NotCreatedByThisApply(ctx, "CloudWatch dashboard \"" + name + "\"", "its body is not the planned one", name);
  }

 private:
  Diagnostics Put(const OperationContext& ctx, const std::string& name, const Value& planned) {
    Result<json> put = CallCloudWatch(*session_, ctx, "PutDashboard",
                                      {{"DashboardName", name}, {"DashboardBody", GetString(planned, "dashboard_body")}});
    if (!put.ok()) {
      Diagnostics diags = AwsErrorDiag("PutDashboard", put.error());
      if (put.error().code == "InvalidParameterInput") {
        diags.Error("CloudWatch refused the dashboard body of \"" + name + "\"",
                    "Fix dashboard_body: it must be a JSON object whose \"widgets\" is a list of widgets.");
      }
      return diags;
    }
    return {};
  }

  ReadResult ReadDashboard(const OperationContext& ctx, const std::string& name, const Value& prior) {
    Result<json> got = CallCloudWatch(*session_, ctx, "GetDashboard", {{"DashboardName", name}});
    if (!got.ok()) {
      if (IsDashboardNotFound(got.error())) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("GetDashboard", got.error())};
    }
    std::string body = got->value("DashboardBody", "");
    Value written = Get(prior, "dashboard_body");
    Value kept = written.IsString() && SameDashboardBody(written.AsString(), body) ? written : Value::String(body);
    return {Value::Object({{"id", Value::String(name)},
                           {"dashboard_name", Value::String(name)},
                           {"dashboard_body", kept},
                           {"dashboard_arn", Value::String(got->value("DashboardArn", ""))}}),
            false,
            {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsCloudwatchDashboard(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsCloudwatchDashboard>(std::move(session));
}

}  // namespace strata::aws
