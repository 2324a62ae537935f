// The sandbox's EKS service (REST-JSON, API version 2017-11-01): routes each call by HTTP
// method and path, as botocore's model declares them, to the handler of its operation.
#include <functional>
#include <string_view>
#include <vector>

#include "sandbox/service.h"
#include "sandbox/services/eks/eks_access_entries.h"
#include "sandbox/services/eks/eks_addons.h"
#include "sandbox/services/eks/eks_clusters.h"
#include "sandbox/services/eks/eks_nodegroups.h"
#include "sandbox/services/eks/eks_tags.h"
#include "sandbox/services/eks/eks_updates.h"

namespace strata::sandbox {
namespace {

using Captures = std::vector<std::string>;
using Handler = std::function<Response(ServiceContext&, const Captures&)>;

//! One operation: its method and path pattern, "{}" matching one path segment.
struct Route {
  std::string method;
  std::vector<std::string> pattern;
  Handler handler;
};

bool Match(const Route& route, const std::vector<std::string>& segments, Captures& captures) {
  if (route.pattern.size() != segments.size()) return false;
  captures.clear();
  for (size_t i = 0; i < segments.size(); ++i) {
    if (route.pattern[i] == "{}") {
      captures.push_back(segments[i]);
    } else if (route.pattern[i] != segments[i]) {
      return false;
    }
  }
  return true;
}

const std::vector<Route>& Routes() {
  using namespace eks;
  using C = const Captures&;
  static const std::vector<Route> kRoutes = {
      {"POST", {"clusters"}, [](ServiceContext& ctx, C) { return CreateCluster(ctx); }},
      {"GET", {"clusters"}, [](ServiceContext& ctx, C) { return ListClusters(ctx); }},
      {"GET",
       {"clusters", "{}"},
       [](ServiceContext& ctx, C c) { return DescribeCluster(ctx, c[0]); }},
      {"DELETE",
       {"clusters", "{}"},
       [](ServiceContext& ctx, C c) { return DeleteCluster(ctx, c[0]); }},
      {"POST",
       {"clusters", "{}", "update-config"},
       [](ServiceContext& ctx, C c) { return UpdateClusterConfig(ctx, c[0]); }},
      {"POST",
       {"clusters", "{}", "updates"},
       [](ServiceContext& ctx, C c) { return UpdateClusterVersion(ctx, c[0]); }},
      {"GET",
       {"clusters", "{}", "updates"},
       [](ServiceContext& ctx, C c) { return ListUpdates(ctx, c[0]); }},
      {"GET",
       {"clusters", "{}", "updates", "{}"},
       [](ServiceContext& ctx, C c) { return DescribeUpdate(ctx, c[0], c[1]); }},
      {"POST",
       {"clusters", "{}", "node-groups"},
       [](ServiceContext& ctx, C c) { return CreateNodegroup(ctx, c[0]); }},
      {"GET",
       {"clusters", "{}", "node-groups"},
       [](ServiceContext& ctx, C c) { return ListNodegroups(ctx, c[0]); }},
      {"GET",
       {"clusters", "{}", "node-groups", "{}"},
       [](ServiceContext& ctx, C c) { return DescribeNodegroup(ctx, c[0], c[1]); }},
      {"DELETE",
       {"clusters", "{}", "node-groups", "{}"},
       [](ServiceContext& ctx, C c) { return DeleteNodegroup(ctx, c[0], c[1]); }},
      {"POST",
       {"clusters", "{}", "node-groups", "{}", "update-config"},
       [](ServiceContext& ctx, C c) { return UpdateNodegroupConfig(ctx, c[0], c[1]); }},
      {"POST",
       {"clusters", "{}", "node-groups", "{}", "update-version"},
       [](ServiceContext& ctx, C c) { return UpdateNodegroupVersion(ctx, c[0], c[1]); }},
      {"POST",
       {"clusters", "{}", "addons"},
       [](ServiceContext& ctx, C c) { return CreateAddon(ctx, c[0]); }},
      {"GET",
       {"clusters", "{}", "addons"},
       [](ServiceContext& ctx, C c) { return ListAddons(ctx, c[0]); }},
      {"GET",
       {"clusters", "{}", "addons", "{}"},
       [](ServiceContext& ctx, C c) { return DescribeAddon(ctx, c[0], c[1]); }},
      {"DELETE",
       {"clusters", "{}", "addons", "{}"},
       [](ServiceContext& ctx, C c) { return DeleteAddon(ctx, c[0], c[1]); }},
      {"POST",
       {"clusters", "{}", "addons", "{}", "update"},
       [](ServiceContext& ctx, C c) { return UpdateAddon(ctx, c[0], c[1]); }},
      {"POST",
       {"clusters", "{}", "access-entries"},
       [](ServiceContext& ctx, C c) { return CreateAccessEntry(ctx, c[0]); }},
      {"GET",
       {"clusters", "{}", "access-entries"},
       [](ServiceContext& ctx, C c) { return ListAccessEntries(ctx, c[0]); }},
      {"GET", {"access-policies"}, [](ServiceContext& ctx, C) { return ListAccessPolicies(ctx); }},
      {"GET",
       {"addons", "supported-versions"},
       [](ServiceContext& ctx, C) { return DescribeAddonVersions(ctx); }},
  };
  return kRoutes;
}

//! /tags/{resourceArn}: the ARN holds ':' and '/', so it is everything after the prefix.
Response RouteTags(ServiceContext& ctx, const std::string& arn) {
  const std::string& method = ctx.request.method;
  if (method == "POST") return eks::TagResource(ctx, arn);
  if (method == "DELETE") return eks::UntagResource(ctx, arn);
  if (method == "GET") return eks::ListTagsForResource(ctx, arn);
  throw ApiError(404, "NotFoundException",
                 "EKS has no operation " + method + " /tags/{resourceArn}.");
}

class EksService final : public Service {
 public:
  std::string name() const override { return "eks"; }
  Protocol protocol() const override { return Protocol::RestJson; }

  Response Handle(ServiceContext& ctx) override {
    const std::string& path = ctx.request.path;
    const std::string tags_prefix = "/tags/";
    if (path.compare(0, tags_prefix.size(), tags_prefix) == 0 && path.size() > tags_prefix.size()) {
      return RouteTags(ctx, path.substr(tags_prefix.size()));
    }
    std::vector<std::string> segments = PathSegments(path);
    // /clusters/{name}/access-entries/{principalArn}[/access-policies[/{policyArn}]]: ARNs
    // hold '/', so everything after the collection is the entry's (eks_access_entries.h).
    if (segments.size() > 3 && segments[0] == "clusters" && segments[2] == "access-entries") {
      std::string head = "/clusters/" + segments[1] + "/access-entries/";
      if (path.compare(0, head.size(), head) == 0) return eks::RouteAccessEntry(ctx, segments[1], path.substr(head.size()));
    }
    Captures captures;
    for (const Route& route : Routes()) {
      if (route.method == ctx.request.method && Match(route, segments, captures)) {
        return route.handler(ctx, captures);
      }
    }
    throw ApiError(404, "NotFoundException",
                   "EKS has no operation " + ctx.request.method + " " + path +
                       " (the sandbox serves "
                       "clusters, node groups, add-ons, updates, access entries and tags).");
  }
};

}  // namespace

std::unique_ptr<Service> NewEksService() { return std::make_unique<EksService>(); }

}  // namespace strata::sandbox
