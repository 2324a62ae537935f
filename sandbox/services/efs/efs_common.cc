#include "sandbox/services/efs/efs_common.h"

#include <algorithm>

#include "sandbox/protocol/json_response.h"

namespace strata::sandbox::efs {

void ThrowBadRequest(const std::string& message) { throw EfsError(400, "BadRequest", message); }

std::optional<Json> FindLive(const ServiceContext& ctx, const char* kind, const std::string& id) {
  std::optional<Json> doc = ctx.world.Get(kind, id);
  if (!doc || doc->value("region", "") != RegionOf(ctx)) return std::nullopt;
  if (TimedPhaseOf(ctx, (*doc)["lifecycle"]) == TimedPhase::Gone) {
    ctx.world.Erase(kind, id);
    return std::nullopt;
  }
  return doc;
}

std::vector<Json> ListLive(const ServiceContext& ctx, const char* kind) {
  std::vector<Json> out;
  for (const auto& [id, doc] : ctx.world.List(kind)) {
    if (std::optional<Json> live = FindLive(ctx, kind, id)) out.push_back(std::move(*live));
  }
  std::stable_sort(out.begin(), out.end(), [](const Json& a, const Json& b) {
    return a["view"].value("CreationTime", 0.0) < b["view"].value("CreationTime", 0.0);
  });
  return out;
}

Json RequireFileSystem(const ServiceContext& ctx, const std::string& id) {
  std::optional<Json> fs = FindLive(ctx, kFileSystemKind, id);
  if (!fs) throw EfsError(404, "FileSystemNotFound", "File system '" + id + "' does not exist.");
  return *fs;
}

std::string LifeCycleState(const ServiceContext& ctx, const Json& doc) {
  switch (TimedPhaseOf(ctx, doc["lifecycle"])) {
    case TimedPhase::Creating:
      return "creating";
    case TimedPhase::Ready:
      return "available";
    case TimedPhase::Updating:
      return "updating";
    case TimedPhase::Deleting:
      return "deleting";
    case TimedPhase::Gone:
      return "deleted";
  }
  return "available";
}

void RequireFileSystemAvailable(const ServiceContext& ctx, const Json& doc) {
  std::string state = LifeCycleState(ctx, doc);
  if (state != "available") {
    throw EfsError(409, "IncorrectFileSystemLifeCycleState",
                   "File system '" + doc["view"].value("FileSystemId", "") + "' is " + state + "; it must be available.");
  }
}

void SetNameFromTags(Json& view) {
  for (const Json& tag : view.value("Tags", Json::array())) {
    if (tag.value("Key", "") == "Name") view["Name"] = tag.value("Value", "");
  }
}

Json NewDocument(const ServiceContext& ctx, Json view) {
  view["CreationTime"] = EpochSeconds(ctx.now);
  return Json{{"region", RegionOf(ctx)}, {"lifecycle", NewTimedLifecycle(ctx, ctx.settings.efs_delay)}, {"view", view}};
}

std::string EfsArn(const ServiceContext& ctx, const std::string& resource) {
  return "arn:aws:elasticfilesystem:" + RegionOf(ctx) + ":" + ctx.settings.account_id + ":" + resource;
}

namespace {

const Json* EfsMember(const Json& body, const char* key) {
  auto it = body.find(key);
  return it == body.end() || it->is_null() ? nullptr : &*it;
}

}  // namespace

std::optional<std::string> OptionalString(const Json& body, const char* key) {
  const Json* m = EfsMember(body, key);
  if (!m) return std::nullopt;
  if (!m->is_string()) ThrowBadRequest(std::string(key) + " must be a string.");
  return m->get<std::string>();
}

std::optional<bool> OptionalBool(const Json& body, const char* key) {
  const Json* m = EfsMember(body, key);
  if (!m) return std::nullopt;
  if (!m->is_boolean()) ThrowBadRequest(std::string(key) + " must be a boolean.");
  return m->get<bool>();
}

std::optional<double> OptionalNumber(const Json& body, const char* key) {
  const Json* m = EfsMember(body, key);
  if (!m) return std::nullopt;
  if (!m->is_number()) ThrowBadRequest(std::string(key) + " must be a number.");
  return m->get<double>();
}

Json CheckedTagList(const Json& body) {
  const Json* tags = EfsMember(body, "Tags");
  if (!tags) return Json::array();
  if (!tags->is_array()) ThrowBadRequest("Tags must be a list of {Key, Value}.");
  if (tags->size() > 50) ThrowBadRequest("A resource can have at most 50 tags.");
  Json out = Json::array();
  for (const Json& tag : *tags) {
    if (!tag.is_object() || !tag.contains("Key") || !tag["Key"].is_string() ||
        (tag.contains("Value") && !tag["Value"].is_string())) {
      ThrowBadRequest("Each tag must have a string Key and Value.");
    }
    std::string key = tag["Key"], value = tag.value("Value", "");
    if (key.empty() || key.size() > 128) ThrowBadRequest("Tag keys must be 1 to 128 characters long.");
    if (key.rfind("aws:", 0) == 0) ThrowBadRequest("Tag keys starting with 'aws:' are reserved.");
    if (value.size() > 256) ThrowBadRequest("Tag values may be at most 256 characters long.");
    out = MergeTagList(out, Json::array({Json{{"Key", key}, {"Value", value}}}));
  }
  return out;
}

Json MergeTagList(const Json& tags, const Json& changes) {
  Json out = Json::array();
  for (const Json& tag : tags) {
    bool replaced = std::any_of(changes.begin(), changes.end(),
                                [&](const Json& c) { return c["Key"] == tag["Key"]; });
    if (!replaced) out.push_back(tag);
  }
  for (const Json& c : changes) out.push_back(c);
  return out;
}

Json RemoveTagKeys(const Json& tags, const std::vector<std::string>& removed) {
  Json out = Json::array();
  for (const Json& tag : tags) {
    if (std::find(removed.begin(), removed.end(), tag.value("Key", "")) == removed.end()) out.push_back(tag);
  }
  return out;
}

std::vector<std::string> QueryValues(const ServiceContext& ctx, const std::string& name) {
  std::vector<std::string> out;
  auto [begin, end] = ctx.request.query.equal_range(name);
  for (auto it = begin; it != end; ++it) out.push_back(it->second);
  return out;
}

std::string QueryValue(const ServiceContext& ctx, const std::string& name) {
  auto it = ctx.request.query.find(name);
  return it == ctx.request.query.end() ? "" : it->second;
}

std::pair<Json, std::string> Page(const ServiceContext& ctx, const std::vector<Json>& items,
                                  const std::string& max_param, const std::string& marker_param, size_t max) {
  size_t limit = max;
  std::string max_text = QueryValue(ctx, max_param);
  if (!max_text.empty()) {
    if (max_text.size() > 6 || !std::all_of(max_text.begin(), max_text.end(), ::isdigit) || std::stoul(max_text) == 0) {
      ThrowBadRequest(max_param + " must be a positive number.");
    }
    limit = std::min<size_t>(limit, std::stoul(max_text));
  }
  size_t start = 0;
  std::string marker = QueryValue(ctx, marker_param);
  if (!marker.empty()) {
    if (marker.size() > 6 || !std::all_of(marker.begin(), marker.end(), ::isdigit) || std::stoul(marker) > items.size()) {
      ThrowBadRequest("Invalid " + marker_param + ".");
    }
    start = std::stoul(marker);
  }
  Json page = Json::array();
  for (size_t i = start; i < items.size() && page.size() < limit; ++i) page.push_back(items[i]);
  size_t next = start + page.size();
  return {page, next < items.size() ? std::to_string(next) : ""};
}

Response EfsResponse(const ServiceContext& ctx, const Json& body, int status) {
  Response response = JsonResponse(body, ctx.request.request_id, status);
  if (status == 204) response.body.clear();
  return response;
}

}  // namespace strata::sandbox::efs
