// The sandbox's Route 53 (REST-XML, API version 2013-04-01, global: signed for us-east-1):
// routes each call by HTTP method and path, as botocore's model declares them, to the
// handler of its operation (route53_zones.cc, route53_records.cc).

#include "sandbox/rest_routes.h"
#include "sandbox/services/route53/route53_store.h"

namespace strata::sandbox {
namespace {

const std::vector<RestRoute>& Route53Routes() {
  using namespace route53;
  using C = const RouteCaptures&;
  static const std::vector<RestRoute> kRoutes = {
      {"POST", {"2013-04-01", "hostedzone"}, [](ServiceContext& ctx, C) { return CreateHostedZone(ctx); }},
      {"GET", {"2013-04-01", "hostedzone"}, [](ServiceContext& ctx, C) { return ListHostedZones(ctx); }},
      {"GET", {"2013-04-01", "hostedzonesbyname"}, [](ServiceContext& ctx, C) { return ListHostedZonesByName(ctx); }},
      {"GET", {"2013-04-01", "hostedzone", "{}"}, [](ServiceContext& ctx, C c) { return GetHostedZone(ctx, c[0]); }},
      {"POST",
       {"2013-04-01", "hostedzone", "{}"},
       [](ServiceContext& ctx, C c) { return UpdateHostedZoneComment(ctx, c[0]); }},
      {"DELETE", {"2013-04-01", "hostedzone", "{}"}, [](ServiceContext& ctx, C c) { return DeleteHostedZone(ctx, c[0]); }},
      {"POST",
       {"2013-04-01", "hostedzone", "{}", "associatevpc"},
       [](ServiceContext& ctx, C c) { return AssociateVPCWithHostedZone(ctx, c[0]); }},
      {"POST",
       {"2013-04-01", "hostedzone", "{}", "disassociatevpc"},
       [](ServiceContext& ctx, C c) { return DisassociateVPCFromHostedZone(ctx, c[0]); }},
      {"POST",
       {"2013-04-01", "hostedzone", "{}", "rrset"},
       [](ServiceContext& ctx, C c) { return ChangeResourceRecordSets(ctx, c[0]); }},
      {"GET",
       {"2013-04-01", "hostedzone", "{}", "rrset"},
       [](ServiceContext& ctx, C c) { return ListResourceRecordSets(ctx, c[0]); }},
      {"GET", {"2013-04-01", "change", "{}"}, [](ServiceContext& ctx, C c) { return GetChange(ctx, c[0]); }},
      {"POST",
       {"2013-04-01", "tags", "{}", "{}"},
       [](ServiceContext& ctx, C c) { return ChangeTagsForResource(ctx, c[0], c[1]); }},
      {"GET",
       {"2013-04-01", "tags", "{}", "{}"},
       [](ServiceContext& ctx, C c) { return ListTagsForResource(ctx, c[0], c[1]); }},
  };
  return kRoutes;
}

class Route53Service final : public Service {
 public:
  std::string name() const override { return "route53"; }
  Protocol protocol() const override { return Protocol::RestXml; }

  Response Handle(ServiceContext& ctx) override {
    RouteCaptures captures;
    if (const RestRoute* route = FindRoute(Route53Routes(), ctx.request.method, PathSegments(ctx.request.path), captures))
      return route->handler(ctx, captures);
    throw ApiError(404, "InvalidInput",
                   "Route 53 has no operation " + ctx.request.method + " " + ctx.request.path +
                       " (the sandbox serves hosted zones, record sets, changes and tags).");
  }

  void Seed(ServiceContext& ctx) override {
    for (const std::string& name : ctx.settings.seed_hosted_zones) route53::SeedHostedZone(ctx, name);
  }
};

}  // namespace

std::unique_ptr<Service> NewRoute53Service() { return std::make_unique<Route53Service>(); }

}  // namespace strata::sandbox
