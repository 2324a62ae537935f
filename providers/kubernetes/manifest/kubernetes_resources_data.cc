// data "kubernetes_resources": the objects of one kind that a namespace, a label selector
// and a field selector pick (kubectl get -l ... --field-selector ...), in the server's order.
// Each item of `objects` is a whole live object (managedFields left out).

#include <fmt/format.h>

#include "engine/value/json.h"
#include "providers/kubernetes/manifest/manifest_types.h"
#include "providers/kubernetes/manifest/object_reader.h"

namespace strata::kubernetes {
namespace {

using namespace attrs;

class KubernetesResourcesData final : public DataSourceType {
 public:
  explicit KubernetesResourcesData(std::shared_ptr<KubeSession> session) : session_(std::move(session)) {}

  ResourceSchema Schema() const override {
    ResourceSchema s = ManagedSchema("kubernetes_resources", {{"api_version", Required("string")},
                                                              {"kind", Required("string")},
                                                              {"namespace", Optional("string")},
                                                              {"label_selector", Optional("string")},
                                                              {"field_selector", Optional("string")},
                                                              {"limit", Optional("number")},
                                                              {"objects", Computed("any")}});
    s.mode = ResourceMode::Data;
    return s;
  }

  ReadResult Read(const OperationContext& ctx, const Value& config) override {
    ReadResult result;
    ListQuery query{GetString(config, "api_version"), GetString(config, "kind"), GetString(config, "namespace"),
                    GetString(config, "label_selector"), GetString(config, "field_selector"),
                    static_cast<int>(GetNumber(config, "limit").value_or(0))};
    std::string id = fmt::format("{}/{}/{}?{}&{}", query.api_version, query.kind, query.namespace_name,
                                 query.label_selector, query.field_selector);
    if (!session_->Reachable()) {
      result.state = Value::Object({{"id", Value::String(id)}, {"objects", Value::Unknown()}});
      return result;
    }
    auto items = ListObjects(*session_, ctx, query, result.diags);
    if (!items) return result;
    for (Json& item : *items) {
      if (item.contains("metadata")) item["metadata"].erase("managedFields");
    }
    Value objects = JsonToValue(*items);
    if (query.kind == "Secret" && SplitApiVersion(query.api_version).first.empty()) objects = objects.MarkSensitive();
    result.state = Normalize(Schema(), With(config, "objects", objects));
    result.state = With(result.state, "id", Value::String(id));
    return result;
  }

 private:
  std::shared_ptr<KubeSession> session_;
};

}  // namespace

std::unique_ptr<DataSourceType> NewKubernetesResourcesData(std::shared_ptr<KubeSession> session) {
  return std::make_unique<KubernetesResourcesData>(std::move(session));
}

}  // namespace strata::kubernetes
