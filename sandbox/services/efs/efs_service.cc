// The sandbox's EFS service (REST-JSON, API version 2015-02-01, signing name
// "elasticfilesystem"): routes each call by HTTP method and path, as botocore's model
// declares them, to its operation (efs_common.h), and renders refusals as EFS does.
#include <vector>

#include "sandbox/protocol/json_response.h"
#include "sandbox/rest_routes.h"
#include "sandbox/service.h"
#include "sandbox/services/efs/efs_common.h"

namespace strata::sandbox {
namespace {

Response Route(ServiceContext& ctx) {
  using namespace efs;
  const std::string& method = ctx.request.method;
  std::vector<std::string> s = PathSegments(ctx.request.path);
  if (s.size() >= 2 && s[0] == "2015-02-01") {
    const std::string& collection = s[1];
    if (s.size() == 2) {
      if (collection == "file-systems" && method == "POST") return CreateFileSystem(ctx);
      if (collection == "file-systems" && method == "GET") return DescribeFileSystems(ctx);
      if (collection == "mount-targets" && method == "POST") return CreateMountTarget(ctx);
      if (collection == "mount-targets" && method == "GET") return DescribeMountTargets(ctx);
      if (collection == "access-points" && method == "POST") return CreateAccessPoint(ctx);
      if (collection == "access-points" && method == "GET") return DescribeAccessPoints(ctx);
    } else if (s.size() == 3) {
      const std::string& id = s[2];
      if (collection == "file-systems" && method == "PUT") return UpdateFileSystem(ctx, id);
      if (collection == "file-systems" && method == "DELETE") return DeleteFileSystem(ctx, id);
      if (collection == "mount-targets" && method == "DELETE") return DeleteMountTarget(ctx, id);
      if (collection == "access-points" && method == "DELETE") return DeleteAccessPoint(ctx, id);
      if (collection == "resource-tags" && method == "POST") return TagResource(ctx, id);
      if (collection == "resource-tags" && method == "DELETE") return UntagResource(ctx, id);
      if (collection == "resource-tags" && method == "GET") return ListTagsForResource(ctx, id);
    } else if (s.size() == 4) {
      const std::string& id = s[2];
      if (collection == "file-systems" && s[3] == "lifecycle-configuration") {
        if (method == "PUT") return PutLifecycleConfiguration(ctx, id);
        if (method == "GET") return DescribeLifecycleConfiguration(ctx, id);
      }
      if (collection == "mount-targets" && s[3] == "security-groups") {
        if (method == "GET") return DescribeMountTargetSecurityGroups(ctx, id);
        if (method == "PUT") return ModifyMountTargetSecurityGroups(ctx, id);
      }
    }
  }
  throw EfsError(404, "BadRequest",
                 "EFS has no operation " + method + " " + ctx.request.path +
                     " (the sandbox serves file systems, lifecycle configurations, mount targets, access points and tags).");
}

class EfsService final : public Service {
 public:
  std::string name() const override { return "elasticfilesystem"; }
  Protocol protocol() const override { return Protocol::RestJson; }

  Response Handle(ServiceContext& ctx) override {
    try {
      return Route(ctx);
    } catch (const efs::EfsError& e) {
      // EFS's error body: {"ErrorCode", "Message"} (and what the error names), the code
      // also in x-amzn-ErrorType. Nothing was written before a refusal.
      Json body = e.extra;
      body["ErrorCode"] = e.code;
      body["Message"] = e.what();
      Response response = JsonResponse(body, ctx.request.request_id, e.status);
      response.headers["x-amzn-ErrorType"] = e.code;
      return response;
    }
  }
};

}  // namespace

std::unique_ptr<Service> NewEfsService() { return std::make_unique<EfsService>(); }

}  // namespace strata::sandbox
