// data "aws_eks_cluster": an existing EKS cluster by name (DescribeCluster), with the
// attributes of the aws_eks_cluster resource.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/eks/eks_api.h"
#include "providers/aws/services/eks/eks_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

class AwsEksClusterData final : public AwsDataSourceType {
 public:
  using AwsDataSourceType::AwsDataSourceType;

  ResourceSchema Schema() const override {
    ResourceSchema s = ManagedSchema(
        "aws_eks_cluster",
        {{"name", Required("string")},
         {"arn", Computed("string")},
         {"endpoint", Computed("string")},
         {"version", Computed("string")},
         {"status", Computed("string")},
         {"role_arn", Computed("string")},
         {"platform_version", Computed("string")},
         {"created_at", Computed("string")},
         {"cluster_id", Computed("string")},
         {"vpc_config",
          Computed("list(object({subnet_ids=set(string), security_group_ids=set(string), "
                   "endpoint_private_access=bool, endpoint_public_access=bool, public_access_cidrs=set(string), "
                   "cluster_security_group_id=string, vpc_id=string}))")},
         {"kubernetes_network_config",
          Computed("list(object({service_ipv4_cidr=string, service_ipv6_cidr=string, ip_family=string}))")},
         {"enabled_cluster_log_types", Computed("set(string)")},
         {"access_config",
          Computed("list(object({authentication_mode=string, bootstrap_cluster_creator_admin_permissions=bool}))")},
         {"certificate_authority", Computed("list(object({data=string}))")},
         {"identity", Computed("list(object({oidc=list(object({issuer=string}))}))")},
         {"tags", Computed("map(string)")}});
    s.mode = ResourceMode::Data;
    return s;
  }

  ReadResult Read(const OperationContext& ctx, const Value& config) override {
    std::string name = GetString(config, "name");
    RestJsonRequest call;
    call.path = EksPath({"clusters", name});
    Result<json> got = CallEks(*session_, ctx, "DescribeCluster", call);
    if (!got.ok()) return {Value(), false, AwsErrorDiag("DescribeCluster", got.error())};
    const json& cluster = (*got)["cluster"];
    ValueMap m = EksClusterAttributes(cluster);
    m.erase("encryption_config");  // the resource's only (Terraform's data source has none)
    m["id"] = Value::String(name);
    m["tags"] = TagsValue(JsonStringMap(cluster, "tags"));
    return {Value::Object(std::move(m)), false, {}};
  }
};

}  // namespace

std::unique_ptr<DataSourceType> NewAwsEksClusterData(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsEksClusterData>(std::move(session));
}

}  // namespace strata::aws
