// data "kubernetes_resource": one object read from the cluster by apiVersion, kind, name and
// namespace — e.g. an Ingress's status.loadBalancer.ingress[0].hostname for a DNS record.
// `object` is the whole live object (managedFields left out); a missing object is an error.

#include <fmt/format.h>

#include "engine/value/json.h"
#include "providers/kubernetes/manifest/manifest_types.h"
#include "providers/kubernetes/manifest/object_reader.h"

namespace strata::kubernetes {
namespace {

using namespace attrs;

class KubernetesResourceData final : public DataSourceType {
 public:
  explicit KubernetesResourceData(std::shared_ptr<KubeSession> session) : session_(std::move(session)) {}

  ResourceSchema Schema() const override {
    ResourceSchema s = ManagedSchema("kubernetes_resource", {{"api_version", Required("string")},
                                                             {"kind", Required("string")},
                                                             {"name", Required("string")},
                                                             {"namespace", Optional("string")},
                                                             {"object", Computed("any")}});
    s.mode = ResourceMode::Data;
    return s;
  }

  ReadResult Read(const OperationContext& ctx, const Value& config) override {
    ReadResult result;
    ObjectRef ref{GetString(config, "api_version"), GetString(config, "kind"), GetString(config, "namespace"),
                  GetString(config, "name")};
    if (!session_->Reachable()) {
      result.state = Value::Object({{"id", Value::String(ref.Id())}, {"object", Value::Unknown()}});
      return result;
    }
    auto live = ReadObject(*session_, ctx, ref, result.diags);
    if (result.diags.HasErrors()) return result;
    if (!live) {
      result.diags.Error("Kubernetes object not found",
                         fmt::format("{} does not exist in the cluster. Check the name and namespace, or make it in "
                                     "an earlier stage or with depends_on on the resource that makes it.",
                                     ref.Describe()));
      return result;
    }
    if (live->contains("metadata")) (*live)["metadata"].erase("managedFields");
    Value object = JsonToValue(*live);
    if (ref.kind == "Secret" && SplitApiVersion(ref.api_version).first.empty()) object = object.MarkSensitive();
    result.state = Normalize(Schema(), With(config, "object", object));
    result.state = With(result.state, "id", Value::String(ref.Id()));
    return result;
  }

 private:
  std::shared_ptr<KubeSession> session_;
};

}  // namespace

std::unique_ptr<DataSourceType> NewKubernetesResourceData(std::shared_ptr<KubeSession> session) {
  return std::make_unique<KubernetesResourceData>(std::move(session));
}

}  // namespace strata::kubernetes
