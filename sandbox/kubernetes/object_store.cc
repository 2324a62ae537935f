#include "sandbox/kubernetes/object_store.h"

namespace strata::sandbox::k8s {
namespace {

std::string Id(const std::string& group, const std::string& plural, const std::string& ns, const std::string& name) {
  return group + "/" + plural + "/" + ns + "/" + name;
}

}  // namespace

std::optional<Json> ObjectStore::Get(const ResourceType& type, const std::string& ns, const std::string& name) const {
  return world_.Get(Kind(), Id(type.group, type.plural, type.namespaced ? ns : "", name));
}

std::vector<Json> ObjectStore::List(const ResourceType& type, const std::string& ns) const {
  return ListResource(type.group, type.plural, type.namespaced ? ns : "");
}

std::vector<Json> ObjectStore::ListWhere(const ResourceType& type, const std::string& json_path,
                                         const std::string& value) const {
  std::vector<Json> out;
  for (auto& [id, object] : world_.ListPrefixWhere(Kind(), type.group + "/" + type.plural + "/", json_path, value))
    out.push_back(std::move(object));
  return out;
}

std::vector<Json> ObjectStore::ListResource(const std::string& group, const std::string& plural,
                                            const std::string& ns) const {
  std::string prefix = group + "/" + plural + "/" + (ns.empty() ? "" : ns + "/");
  std::vector<Json> out;
  for (auto& [id, object] : world_.ListPrefix(Kind(), prefix)) out.push_back(std::move(object));
  return out;
}

void ObjectStore::Put(const ResourceType& type, const Json& object) {
  const Json& meta = object.at("metadata");
  std::string ns = type.namespaced ? meta.value("namespace", std::string()) : "";
  world_.Put(Kind(), Id(type.group, type.plural, ns, meta.at("name").get<std::string>()), object);
}

bool ObjectStore::Erase(const ResourceType& type, const std::string& ns, const std::string& name) {
  return EraseResource(type.group, type.plural, type.namespaced ? ns : "", name);
}

bool ObjectStore::EraseResource(const std::string& group, const std::string& plural, const std::string& ns,
                                const std::string& name) {
  return world_.Erase(Kind(), Id(group, plural, ns, name));
}

std::string ObjectStore::NextResourceVersion() {
  std::string setting = Kind() + ":resourceVersion";
  std::optional<std::string> last = world_.Setting(setting);
  std::string next = std::to_string((last ? std::stoll(*last) : 0) + 1);
  world_.SetSetting(setting, next);
  return next;
}

std::string ObjectStore::CurrentResourceVersion() const {
  return world_.Setting(Kind() + ":resourceVersion").value_or("0");
}

std::optional<Json> ObjectStore::GetRecord(const std::string& key) const {
  return world_.Get("k8s-controllers:" + cluster_, key);
}

void ObjectStore::PutRecord(const std::string& key, const Json& record) {
  world_.Put("k8s-controllers:" + cluster_, key, record);
}

void ObjectStore::EraseRecord(const std::string& key) { world_.Erase("k8s-controllers:" + cluster_, key); }

std::vector<std::string> ObjectStore::RecordKeys() const {
  std::vector<std::string> keys;
  for (auto& [key, record] : world_.List("k8s-controllers:" + cluster_)) keys.push_back(key);
  return keys;
}

}  // namespace strata::sandbox::k8s
