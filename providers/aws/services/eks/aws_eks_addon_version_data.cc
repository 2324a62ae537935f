// data "aws_eks_addon_version": the version of an EKS add-on to install on a cluster of a
// Kubernetes version (DescribeAddonVersions): the version EKS marks as the default for it,
// or with most_recent the newest one offered, as Terraform's data source picks. An add-on
// EKS does not offer for that version is an error that names both.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/eks/eks_api.h"
#include "providers/aws/services/eks/eks_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

// The add-on version to report from one DescribeAddonVersions entry: the first listed
// (EKS lists the newest first) when `most_recent`, else the one compatible with
// `kubernetes_version` as its default. "" when there is none.
std::string PickAddonVersion(const json& addon, const std::string& kubernetes_version, bool most_recent) {
  if (!addon.contains("addonVersions") || !addon["addonVersions"].is_array()) return "";
  for (const json& version : addon["addonVersions"]) {
    if (most_recent) return JsonString(version, "addonVersion");
    if (!version.contains("compatibilities") || !version["compatibilities"].is_array()) continue;
    for (const json& compatibility : version["compatibilities"]) {
      if (JsonString(compatibility, "clusterVersion") == kubernetes_version &&
          compatibility.value("defaultVersion", false))
        return JsonString(version, "addonVersion");
    }
  }
  return "";
}

class AwsEksAddonVersionData final : public AwsDataSourceType {
 public:
  using AwsDataSourceType::AwsDataSourceType;

  ResourceSchema Schema() const override {
    ResourceSchema s = ManagedSchema("aws_eks_addon_version", {{"addon_name", Required("string")},
                                                               {"kubernetes_version", Required("string")},
                                                               {"most_recent", Optional("bool")},
                                                               {"version", Computed("string")}});
    s.mode = ResourceMode::Data;
    return s;
  }

  ReadResult Read(const OperationContext& ctx, const Value& config) override {
    std::string name = GetString(config, "addon_name");
    std::string kubernetes_version = GetString(config, "kubernetes_version");
    bool most_recent = GetBool(config, "most_recent", false);
    RestJsonRequest call;
    call.path = "/addons/supported-versions";
    call.query.push_back({"addonName", name});
    call.query.push_back({"kubernetesVersion", kubernetes_version});
    Result<json> got = CallEks(*session_, ctx, "DescribeAddonVersions", call);
    if (!got.ok()) return {Value(), false, AwsErrorDiag("DescribeAddonVersions", got.error())};
    std::string version;
    if ((*got).contains("addons") && (*got)["addons"].is_array()) {
      for (const json& addon : (*got)["addons"]) {
        if (JsonString(addon, "addonName") == name) version = PickAddonVersion(addon, kubernetes_version, most_recent);
      }
    }
    if (version.empty()) {
      return {Value(), false,
              Error("No EKS add-on version found",
                    "EKS offers no " + std::string(most_recent ? "" : "default ") + "version of add-on \"" + name +
                        "\" for Kubernetes " + kubernetes_version +
                        ". Check the add-on's name and the cluster's version (`aws eks describe-addon-versions "
                        "--addon-name " +
                        name + "` lists what is offered)" + (most_recent ? "." : ", or set most_recent = true."))};
    }
    Value state = Value::Object({{"id", Value::String(name)},
                                 {"addon_name", Value::String(name)},
                                 {"kubernetes_version", Value::String(kubernetes_version)},
                                 {"most_recent", Value::Bool(most_recent)},
                                 {"version", Value::String(version)}});
    return {state, false, {}};
  }
};

}  // namespace

std::unique_ptr<DataSourceType> NewAwsEksAddonVersionData(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsEksAddonVersionData>(std::move(session));
}

}  // namespace strata::aws
