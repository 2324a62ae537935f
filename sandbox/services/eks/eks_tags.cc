#include "sandbox/services/eks/eks_tags.h"

#include <functional>
#include <optional>
#include <vector>

#include "sandbox/services/eks/eks_access_entries.h"
#include "sandbox/services/eks/eks_addons.h"
#include "sandbox/services/eks/eks_clusters.h"
#include "sandbox/services/eks/eks_common.h"
#include "sandbox/services/eks/eks_nodegroups.h"

namespace strata::sandbox::eks {

namespace {

//! The object an ARN names: its stored document and how to save it back.
struct Tagged {
  Json doc;
  std::function<void(ServiceContext&, const Json&)> save;
};

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t at = text.find(separator, start);
    parts.push_back(text.substr(start, at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

[[noreturn]] void ThrowTagNotFound(const std::string& arn) {
  throw ApiError(404, "NotFoundException", "Resource not found: " + arn);
}

Tagged FindTagged(ServiceContext& ctx, const std::string& arn) {
  std::vector<std::string> fields = Split(arn, ':');
  if (fields.size() != 6 || fields[0] != "arn" || fields[2] != "eks" || fields[3].empty()) {
    throw ApiError(400, "BadRequestException",
                   "The resource ARN " + arn + " is not a valid EKS ARN.");
  }
  if (fields[3] != Region(ctx) || fields[4] != ctx.settings.account_id) ThrowTagNotFound(arn);
  std::vector<std::string> path = Split(fields[5], '/');
  std::optional<Json> doc;
  std::string arn_member;
  Tagged tagged;
  if (path[0] == "cluster" && path.size() == 2) {
    doc = LoadCluster(ctx, path[1]);
    arn_member = "arn";
    tagged.save = SaveCluster;
  } else if (path[0] == "nodegroup" && path.size() == 4) {
    doc = LoadNodegroup(ctx, path[1], path[2]);
    arn_member = "nodegroupArn";
    tagged.save = SaveNodegroup;
  } else if (path[0] == "addon" && path.size() == 4) {
    doc = LoadAddon(ctx, path[1], path[2]);
    arn_member = "addonArn";
    tagged.save = SaveAddon;
  } else if (path[0] == "access-entry" && path.size() == 6) {
    doc = FindAccessEntryByArn(ctx, path[1], arn);
    arn_member = "accessEntryArn";
    tagged.save = SaveAccessEntry;
  } else {
    ThrowTagNotFound(arn);
  }
  // A node group or add-on ARN ends in its own id: one re-created under the same name is
  // another resource.
  if (!doc || doc->at("view").value(arn_member, "") != arn) ThrowTagNotFound(arn);
  tagged.doc = std::move(*doc);
  return tagged;
}

}  // namespace

Response TagResource(ServiceContext& ctx, const std::string& arn) {
  Json body = ObjectBody(ctx);
  Tagged tagged = FindTagged(ctx, arn);
  std::optional<std::map<std::string, std::string>> tags;
  try {
    tags = OptionalStringMap(body, "tags");
  } catch (const ApiError& e) {
    throw ApiError(400, "BadRequestException", e.what());
  }
  if (!tags || tags->empty()) throw ApiError(400, "BadRequestException", "tags is required.");
  std::map<std::string, std::string> merged =
      tagged.doc["view"].value("tags", Json::object()).get<std::map<std::string, std::string>>();
  for (const auto& [key, value] : *tags) merged[key] = value;
  tagged.doc["view"]["tags"] = CheckedTags(merged, "BadRequestException");
  tagged.save(ctx, tagged.doc);
  return JsonResponse(ctx, Json::object());
}

Response UntagResource(ServiceContext& ctx, const std::string& arn) {
  Tagged tagged = FindTagged(ctx, arn);
  std::vector<std::string> keys;
  for (const auto& [key, value] : ctx.request.query) {
    if (key == "tagKeys") keys.push_back(value);
  }
  if (keys.empty()) throw ApiError(400, "BadRequestException", "tagKeys is required.");
  Json& tags = tagged.doc["view"]["tags"];
  if (!tags.is_object()) tags = Json::object();
  for (const std::string& key : keys) tags.erase(key);
  tagged.save(ctx, tagged.doc);
  return JsonResponse(ctx, Json::object());
}

Response ListTagsForResource(ServiceContext& ctx, const std::string& arn) {
  Tagged tagged = FindTagged(ctx, arn);
  return JsonResponse(ctx, Json{{"tags", tagged.doc["view"].value("tags", Json::object())}});
}

}  // namespace strata::sandbox::eks
