#include "sandbox/services/eks/eks_updates.h"

#include "sandbox/services/eks/eks_clusters.h"
#include "sandbox/services/eks/eks_common.h"

namespace strata::sandbox::eks {

namespace {

bool Targets(const Json& doc, const UpdateTarget& target) {
  return doc.value("nodegroup", "") == target.nodegroup && doc.value("addon", "") == target.addon;
}

Json RenderUpdate(const ServiceContext& ctx, const Json& doc) {
  Json view = doc.at("view");
  view["status"] = NowMs(ctx) >= doc.at("doneMs").get<int64_t>() ? "Successful" : "InProgress";
  return view;
}

//! The node group or add-on a DescribeUpdate/ListUpdates call narrows to.
UpdateTarget TargetOfQuery(const ServiceContext& ctx, const std::string& cluster) {
  UpdateTarget target{cluster, "", ""};
  for (const auto& [key, value] : ctx.request.query) {
    if (key == "nodegroupName") target.nodegroup = value;
    if (key == "addonName") target.addon = value;
  }
  return target;
}

}  // namespace

Json StartUpdate(ServiceContext& ctx, const UpdateTarget& target, const std::string& type,
                 const Json& params, Millis delay) {
  std::string id = ctx.world.NewUuid();
  Json doc = {{"region", Region(ctx)},
              {"cluster", target.cluster},
              {"nodegroup", target.nodegroup},
              {"addon", target.addon},
              {"doneMs", MsFromNow(ctx, delay)},
              {"view",
               {{"id", id},
                {"type", type},
                {"params", params},
                {"createdAt", NowEpoch(ctx)},
                {"errors", Json::array()}}}};
  ctx.world.Put(kUpdateKind, ChildKey(ctx, target.cluster, id), doc);
  return RenderUpdate(ctx, doc);
}

void EraseUpdates(ServiceContext& ctx, const UpdateTarget& target) {
  bool whole_cluster = target.nodegroup.empty() && target.addon.empty();
  for (const std::string& key : ChildKeys(ctx, kUpdateKind, target.cluster)) {
    std::optional<Json> doc = ctx.world.Get(kUpdateKind, key);
    if (doc && (whole_cluster || Targets(*doc, target))) ctx.world.Erase(kUpdateKind, key);
  }
}

Response DescribeUpdate(ServiceContext& ctx, const std::string& cluster, const std::string& id) {
  RequireCluster(ctx, cluster);
  std::optional<Json> doc = ctx.world.Get(kUpdateKind, ChildKey(ctx, cluster, id));
  if (!doc || !Targets(*doc, TargetOfQuery(ctx, cluster))) {
    ThrowNotFound("No update found for ID: " + id);
  }
  return JsonResponse(ctx, Json{{"update", RenderUpdate(ctx, *doc)}});
}

Response ListUpdates(ServiceContext& ctx, const std::string& cluster) {
  RequireCluster(ctx, cluster);
  UpdateTarget target = TargetOfQuery(ctx, cluster);
  std::vector<std::string> ids;
  for (const std::string& key : ChildKeys(ctx, kUpdateKind, cluster)) {
    std::optional<Json> doc = ctx.world.Get(kUpdateKind, key);
    if (doc && Targets(*doc, target)) ids.push_back(doc->at("view").at("id").get<std::string>());
  }
  return JsonResponse(ctx, Paginate(ctx, ids, "updateIds"));
}

}  // namespace strata::sandbox::eks
