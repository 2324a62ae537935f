#include "sandbox/kubernetes/openapi.h"

#include <cstdint>

namespace strata::sandbox::k8s {
namespace {

// The query parameters every PATCH takes (the ones kubectl checks for).
constexpr const char* kPatchParameters[] = {"dryRun", "fieldManager", "fieldValidation", "force"};

std::string GroupVersionPath(const GroupVersion& gv) {
  return gv.group.empty() ? "api/" + gv.version : "apis/" + gv.group + "/" + gv.version;
}

std::string ObjectPath(const GroupVersion& gv, const ResourceType& r) {
  return "/" + GroupVersionPath(gv) + (r.namespaced ? "/namespaces/{namespace}/" : "/") + r.plural + "/{name}";
}

Json GroupVersionKind(const ResourceType& r) { return {{"group", r.group}, {"version", r.version}, {"kind", r.kind}}; }

// Every patchable resource's object path with its PATCH operation. `parameter` writes one
// query parameter in the document's own format (OpenAPI v2 and v3 differ).
template <class Parameter>
Json PatchPaths(const std::vector<const GroupVersion*>& gvs, Parameter parameter) {
  Json paths = Json::object();
  for (const GroupVersion* gv : gvs)
    for (const ResourceType& r : gv->resources) {
      if (!r.Allows("patch")) continue;
      Json parameters = Json::array();
      for (const char* name : kPatchParameters) parameters.push_back(parameter(name));
      paths[ObjectPath(*gv, r)] = {{"patch",
                                    {{"operationId", "patch" + r.kind},
                                     {"parameters", parameters},
                                     {"responses", {{"200", {{"description", "OK"}}}}},
                                     {"x-kubernetes-action", "patch"},
                                     {"x-kubernetes-group-version-kind", GroupVersionKind(r)}}}};
    }
  return paths;
}

std::vector<const GroupVersion*> AllGroupVersions(const ApiTypes& types) {
  std::vector<const GroupVersion*> out;
  for (const ApiGroup& g : types.groups())
    for (const GroupVersion& gv : g.versions) out.push_back(&gv);
  return out;
}

Json V3Document(const GroupVersion& gv) {
  auto parameter = [](const char* name) {
    return Json{{"name", name}, {"in", "query"}, {"schema", {{"type", "string"}}}, {"uniqueItems", true}};
  };
  return {{"openapi", "3.0.0"},
          {"info", {{"title", "Kubernetes"}, {"version", "v1.31.0"}}},
          {"paths", PatchPaths({&gv}, parameter)},
          {"components", {{"schemas", Json::object()}}}};
}

Json V2Document(const ApiTypes& types) {
  auto parameter = [](const char* name) {
    return Json{{"name", name}, {"in", "query"}, {"type", "string"}, {"uniqueItems", true}};
  };
  return {{"swagger", "2.0"},
          {"info", {{"title", "Kubernetes"}, {"version", "v1.31.0"}}},
          {"paths", PatchPaths(AllGroupVersions(types), parameter)},
          {"definitions", Json::object()}};
}

// Protocol buffers' wire format, as much of it as the v2 document needs.
class ProtoWriter {
 public:
  ProtoWriter& String(int field, const std::string& value) {
    Key(field, 2);
    Varint(value.size());
    out_ += value;
    return *this;
  }
  ProtoWriter& Message(int field, const ProtoWriter& message) { return String(field, message.out_); }
  ProtoWriter& Bool(int field, bool value) {
    Key(field, 0);
    Varint(value ? 1 : 0);
    return *this;
  }
  const std::string& bytes() const { return out_; }

 private:
  void Key(int field, int wire_type) { Varint((static_cast<uint64_t>(field) << 3) | static_cast<uint64_t>(wire_type)); }
  void Varint(uint64_t v) {
    while (v >= 0x80) {
      out_ += static_cast<char>((v & 0x7f) | 0x80);
      v >>= 7;
    }
    out_ += static_cast<char>(v);
  }
  std::string out_;
};

// gnostic's openapi.v2 field numbers (openapiv2/OpenAPIv2.proto).
ProtoWriter QueryParameter(const std::string& name) {
  ProtoWriter sub;  // QueryParameterSubSchema: in = 2, name = 4, type = 6, unique_items = 20
  sub.String(2, "query").String(4, name).String(6, "string").Bool(20, true);
  ProtoWriter non_body;  // NonBodyParameter: query_parameter_sub_schema = 3
  non_body.Message(3, sub);
  ProtoWriter parameter;  // Parameter: non_body_parameter = 2
  parameter.Message(2, non_body);
  ProtoWriter item;  // ParametersItem: parameter = 1
  item.Message(1, parameter);
  return item;
}

std::string Quoted(const std::string& s) { return Json(s).dump(); }

}  // namespace

Json OpenApiDocument(const ApiTypes& types, const std::string& path) {
  if (path == "/openapi/v2") return V2Document(types);
  const std::string root = "/openapi/v3";
  if (path == root || path == root + "/") {
    Json paths = Json::object();
    for (const GroupVersion* gv : AllGroupVersions(types))
      paths[GroupVersionPath(*gv)] = {{"serverRelativeURL", root + "/" + GroupVersionPath(*gv)}};
    return {{"paths", paths}};
  }
  if (path.rfind(root + "/", 0) != 0) return nullptr;
  std::string wanted = path.substr(root.size() + 1);
  for (const GroupVersion* gv : AllGroupVersions(types))
    if (GroupVersionPath(*gv) == wanted) return V3Document(*gv);
  return nullptr;
}

std::string OpenApiV2Protobuf(const ApiTypes& types) {
  ProtoWriter paths;  // Paths: path = 2 (NamedPathItem)
  for (const GroupVersion* gv : AllGroupVersions(types))
    for (const ResourceType& r : gv->resources) {
      if (!r.Allows("patch")) continue;
      ProtoWriter any;  // Any: yaml = 2
      any.String(2, "group: " + Quoted(r.group) + "\nkind: " + Quoted(r.kind) + "\nversion: " + Quoted(r.version) + "\n");
      ProtoWriter extension;  // NamedAny: name = 1, value = 2
      extension.String(1, "x-kubernetes-group-version-kind").Message(2, any);
      ProtoWriter operation;  // Operation: operation_id = 5, parameters = 8, vendor_extension = 13
      operation.String(5, "patch" + r.kind);
      for (const char* name : kPatchParameters) operation.Message(8, QueryParameter(name));
      operation.Message(13, extension);
      ProtoWriter item;  // PathItem: patch = 8
      item.Message(8, operation);
      ProtoWriter named;  // NamedPathItem: name = 1, value = 2
      named.String(1, ObjectPath(*gv, r)).Message(2, item);
      paths.Message(2, named);
    }
  ProtoWriter info;  // Info: title = 1, version = 2
  info.String(1, "Kubernetes").String(2, "v1.31.0");
  ProtoWriter document;  // Document: swagger = 1, info = 2, paths = 8
  document.String(1, "2.0").Message(2, info).Message(8, paths);
  return document.bytes();
}

}  // namespace strata::sandbox::k8s
