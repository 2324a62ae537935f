#include "sandbox/kubernetes/merge/managed_fields.h"

#include <algorithm>

#include "engine/base/time_format.h"
#include "providers/kubernetes/fieldpath/fields_v1.h"

namespace strata::sandbox::k8s {
namespace {

using kubernetes::fieldpath::MakeFieldPath;

std::string Member(const Json& entry, const char* name) {
  auto it = entry.find(name);
  return it != entry.end() && it->is_string() ? it->get<std::string>() : std::string();
}

int64_t Seconds(const std::string& time) {
  std::chrono::system_clock::time_point t;
  if (time.empty() || !base::ParseRfc3339(time, &t)) return 0;
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

}  // namespace

bool ManagedFieldsEntry::SameManager(const ManagedFieldsEntry& other) const {
  return manager == other.manager && operation == other.operation && subresource == other.subresource &&
         (operation == "Apply" || api_version == other.api_version);
}

base::Result<std::vector<ManagedFieldsEntry>, std::string> DecodeManagedFields(const Json& object) {
  std::vector<ManagedFieldsEntry> entries;
  const Json* list = nullptr;
  if (auto metadata = object.find("metadata"); metadata != object.end() && metadata->is_object()) {
    if (auto it = metadata->find("managedFields"); it != metadata->end() && !it->is_null()) list = &*it;
  }
  if (list == nullptr) return entries;
  if (!list->is_array()) return std::string("metadata.managedFields must be a list");
  for (const Json& item : *list) {
    if (!item.is_object()) return std::string("metadata.managedFields entries must be objects");
    ManagedFieldsEntry entry;
    entry.manager = Member(item, "manager");
    entry.operation = Member(item, "operation");
    entry.api_version = Member(item, "apiVersion");
    entry.time = Member(item, "time");
    entry.subresource = Member(item, "subresource");
    if (entry.operation != "Apply" && entry.operation != "Update") {
      return "managedFields entry of \"" + entry.manager + "\": operation must be `Apply` or `Update`";
    }
    if (Member(item, "fieldsType") != "FieldsV1") {
      return "managedFields entry of \"" + entry.manager + "\": fieldsType must be FieldsV1";
    }
    auto fields = kubernetes::fieldpath::FromFieldsV1(item.contains("fieldsV1") ? item["fieldsV1"] : Json::object());
    if (!fields.ok()) return "managedFields entry of \"" + entry.manager + "\": " + fields.error();
    entry.fields = std::move(*fields);
    entries.push_back(std::move(entry));
  }
  return entries;
}

Json EncodeManagedFields(std::vector<ManagedFieldsEntry> entries) {
  entries.erase(std::remove_if(entries.begin(), entries.end(), [](const auto& e) { return e.fields.Empty(); }),
                entries.end());
  std::stable_sort(entries.begin(), entries.end(), [](const ManagedFieldsEntry& p, const ManagedFieldsEntry& q) {
    if (p.operation != q.operation) return p.operation < q.operation;
    if (Seconds(p.time) != Seconds(q.time)) return Seconds(p.time) < Seconds(q.time);
    if (p.manager != q.manager) return p.manager < q.manager;
    if (p.api_version != q.api_version) return p.api_version < q.api_version;
    return p.subresource < q.subresource;
  });
  Json out = Json::array();
  for (const ManagedFieldsEntry& e : entries) {
    Json entry = {{"manager", e.manager},
                  {"operation", e.operation},
                  {"apiVersion", e.api_version},
                  {"fieldsType", "FieldsV1"},
                  {"fieldsV1", kubernetes::fieldpath::ToFieldsV1(e.fields)}};
    if (!e.time.empty()) entry["time"] = e.time;
    if (!e.subresource.empty()) entry["subresource"] = e.subresource;
    out.push_back(std::move(entry));
  }
  return out;
}

const kubernetes::fieldpath::Set& StrippedFields() {
  static const kubernetes::fieldpath::Set stripped = [] {
    kubernetes::fieldpath::Set s;
    s.Insert(MakeFieldPath({"apiVersion"}));
    s.Insert(MakeFieldPath({"kind"}));
    s.Insert(MakeFieldPath({"metadata"}));
    for (const char* member : {"name", "namespace", "creationTimestamp", "selfLink", "uid", "clusterName",
                               "generation", "managedFields", "resourceVersion"}) {
      s.Insert(MakeFieldPath({"metadata", member}));
    }
    return s;
  }();
  return stripped;
}

}  // namespace strata::sandbox::k8s
