// aws_route_table: a route table over EC2's CreateRouteTable / DescribeRouteTables /
// CreateRoute / ReplaceRoute / DeleteRoute / DeleteRouteTable, with Terraform's attribute
// names. The inline `route` set is optional and computed: left out of the config, the
// table's routes are read but not managed; written (even as []), they are made to match,
// route by route, keyed by destination. The VPC's "local" route and propagated routes are
// never part of it.

#include <map>

#include "providers/aws/services/ec2/ec2_resource_type.h"
#include "providers/aws/services/ec2/ec2_routes.h"
#include "providers/aws/services/ec2/ec2_tags.h"
#include "providers/aws/services/ec2/ec2_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

class AwsRouteTable final : public Ec2ResourceType {
 public:
  explicit AwsRouteTable(std::shared_ptr<AwsSession> session)
      : Ec2ResourceType(std::move(session), {"DescribeRouteTables", "RouteTableId", "routeTableSet",
                                             "InvalidRouteTableID.NotFound", "DeleteRouteTable"}) {
    ReadInBatchesBy("route-table-id", 100);
  }

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_route_table", {{"vpc_id", Required("string", true)},
                                             {"route", OptionalComputed(InlineRouteSetType())},
                                             {"tags", Optional("map(string)")},
                                             {"tags_all", Computed("map(string)")},
                                             {"arn", Computed("string")},
                                             {"owner_id", Computed("string")}});
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    QueryRequest call = Ec2Call("CreateRouteTable");
    call.Add("VpcId", GetString(planned, "vpc_id"));
    AddTagSpecification(call, "route-table", TagsOnCreate(ctx, planned));
    return FinishCreate(ctx, call, "routeTable/routeTableId", planned);
  }

  //! Subnets still associated are let go first, as Terraform does.
  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    QueryRequest describe = Ec2Call("DescribeRouteTables");
    describe.Add("RouteTableId.1", GetString(prior, "id"));
    Result<XmlResponse> described = CallEc2(*session_, ctx, describe);
    if (!described.ok()) {
      if (described.error().code == api_.not_found) return {};
      return {AwsErrorDiag("DescribeRouteTables", described.error())};
    }
    pugi::xml_node table = described->result.child("routeTableSet").child("item");
    for (pugi::xml_node a : table.child("associationSet").children("item")) {
      if (std::string(a.child_value("main")) == "true") continue;
      QueryRequest call = Ec2Call("DisassociateRouteTable");
      call.Add("AssociationId", a.child_value("routeTableAssociationId"));
      Result<XmlResponse> done = CallEc2(*session_, ctx, call);
      if (!done.ok() && done.error().code != "InvalidAssociationID.NotFound") {
        return {AwsErrorDiag("DisassociateRouteTable", done.error())};
      }
    }
    return Ec2ResourceType::Delete(ctx, prior);
  }

 protected:
  Value ApplyDefaults(const Value& v) const override {
    Value out = AwsResourceType::ApplyDefaults(v);
    Value routes = Get(out, "route");
    if (!routes.IsSequence() || !routes.IsWhollyKnown()) return out;
    ValueList canonical;
    for (const Value& r : routes.AsList()) canonical.push_back(CanonicalRoute(r, RouteNames::Inline));
    return With(out, "route", Value::Set(std::move(canonical)));
  }

 private:
  //! Makes the table's routes match `planned`'s `route` when it is written: routes to
  //! destinations no longer listed are deleted, changed targets replaced, new ones created.
  Diagnostics ModifyAttributes(const OperationContext& ctx, const std::string& id,
                               const Value& prior, const Value& planned) override {
    Value want = Get(planned, "route");
    if (!want.IsSequence() || !want.IsWhollyKnown()) return {};
    std::map<std::string, Value> before, after;
    Value had = Get(prior, "route");
    if (had.IsSequence()) {
      for (const Value& r : had.AsList()) before[RouteDestination(r, RouteNames::Inline)] = CanonicalRoute(r, RouteNames::Inline);
    }
    for (const Value& r : want.AsList()) after[RouteDestination(r, RouteNames::Inline)] = CanonicalRoute(r, RouteNames::Inline);
    for (const auto& [destination, route] : before) {
      if (after.count(destination)) continue;
      Diagnostics diags = RunEc2(*session_, ctx, DeleteRouteCall(id, destination), {"InvalidRoute.NotFound"});
      if (diags.HasErrors()) return diags;
    }
    for (const auto& [destination, route] : after) {
      auto old = before.find(destination);
      if (old != before.end() && old->second.Equals(route)) continue;
      const char* action = old == before.end() ? "CreateRoute" : "ReplaceRoute";
      Diagnostics diags = RunEc2(*session_, ctx, RouteCall(action, id, route, RouteNames::Inline), {"RouteAlreadyExists"});
      if (diags.HasErrors()) return diags;
    }
    return {};
  }

  ReadResult StateFrom(const OperationContext& ctx, pugi::xml_node item,
                       const Value& prior) override {
    (void)ctx;
    std::string id = item.child_value("routeTableId"), owner = item.child_value("ownerId");
    ValueList routes;
    for (pugi::xml_node r : ManagedRoutes(item)) routes.push_back(RouteValue(r, RouteNames::Inline));
    TagMap remote = ReadTagSet(item);
    Value state = Value::Object({
        {"id", Value::String(id)},
        {"vpc_id", Value::String(item.child_value("vpcId"))},
        {"route", Value::Set(std::move(routes))},
        {"tags", TagsForState(remote, session_->default_tags, Get(prior, "tags"))},
        {"tags_all", TagsValue(remote)},
        {"arn", Value::String(MakeArn("ec2", session_->Region(), owner, "route-table/" + id))},
        {"owner_id", Value::String(owner)}});
    return {state, false, {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsRouteTable(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsRouteTable>(std::move(session));
}

}  // namespace strata::aws
