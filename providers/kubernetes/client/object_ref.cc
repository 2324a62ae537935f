#include "providers/kubernetes/client/object_ref.h"

#include <sstream>

#include "providers/kubernetes/client/json_fields.h"

namespace strata::kubernetes {
std::string ObjectRef::Describe() const {
  std::string out = api_version + " " + kind + " ";
  if (!namespace_name.empty()) out += namespace_name + "/";
  return out + name;
}

std::string ObjectRef::Id() const {
  std::string out = "apiVersion=" + api_version + ",kind=" + kind;
  if (!namespace_name.empty()) out += ",namespace=" + namespace_name;
  return out + ",name=" + name;
}

base::Result<ObjectRef, std::string> RefOf(const Json& manifest) {
  if (!manifest.is_object()) return std::string("the manifest is not an object");
  ObjectRef ref;
  ref.api_version = StringAt(manifest, "apiVersion");
  ref.kind = StringAt(manifest, "kind");
  if (ref.api_version.empty()) return std::string("the manifest has no apiVersion (a string such as \"apps/v1\")");
  if (ref.kind.empty()) return std::string("the manifest has no kind (a string such as \"Deployment\")");
  auto metadata = manifest.find("metadata");
  if (metadata == manifest.end() || !metadata->is_object()) {
    return std::string("the manifest has no metadata: metadata.name is required");
  }
  ref.name = StringAt(*metadata, "name");
  ref.namespace_name = StringAt(*metadata, "namespace");
  if (ref.name.empty()) {
    if (metadata->contains("generateName")) {
      return std::string("metadata.generateName is not supported: an object Strata manages needs a fixed "
                         "metadata.name, so that the next run finds it");
    }
    return std::string("the manifest has no metadata.name");
  }
  return ref;
}

base::Result<ObjectRef, std::string> ParseObjectId(const std::string& id) {
  ObjectRef ref;
  std::stringstream in(id);
  std::string part;
  const std::string form =
      "expected \"apiVersion=<v>,kind=<kind>,namespace=<ns>,name=<name>\" (namespace only for namespaced kinds), "
      "e.g. \"apiVersion=apps/v1,kind=Deployment,namespace=kube-system,name=cluster-autoscaler\"";
  while (std::getline(in, part, ',')) {
    auto eq = part.find('=');
    if (eq == std::string::npos) return "\"" + part + "\" is not key=value: " + form;
    std::string key = part.substr(0, eq), value = part.substr(eq + 1);
    if (key == "apiVersion") {
      ref.api_version = value;
    } else if (key == "kind") {
      ref.kind = value;
    } else if (key == "namespace") {
      ref.namespace_name = value;
    } else if (key == "name") {
      ref.name = value;
    } else {
      return "unknown key \"" + key + "\": " + form;
    }
  }
  if (ref.api_version.empty() || ref.kind.empty() || ref.name.empty()) return form;
  return ref;
}

std::string CollectionPath(const ResourceInfo& resource, const std::string& namespace_name) {
  std::string path = resource.group.empty() ? "/api/" + resource.version
                                            : "/apis/" + resource.group + "/" + resource.version;
  if (resource.namespaced) path += "/namespaces/" + UrlEncode(namespace_name);
  return path + "/" + resource.resource;
}

std::string ObjectPath(const ResourceInfo& resource, const std::string& namespace_name, const std::string& name) {
  return CollectionPath(resource, namespace_name) + "/" + UrlEncode(name);
}

}  // namespace strata::kubernetes
