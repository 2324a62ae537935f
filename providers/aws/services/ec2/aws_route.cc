// aws_route: one route in a route table, over EC2's CreateRoute / ReplaceRoute /
// DeleteRoute and DescribeRouteTables, with Terraform's attribute names. AWS gives routes
// no id, so the id is Terraform's: "r-" + route table id + the CRC-32 of the destination
// (ec2_hash.h). Changing the table or the destination replaces the route; changing the
// target is a ReplaceRoute in place. Import takes "<route table id>_<destination>". The
// destination in its table is the natural key: an interrupted create is found again by
// it, and adopted when the route goes to the planned target (which is all a route is).

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/ec2/ec2_api.h"
#include "providers/aws/services/ec2/ec2_hash.h"
#include "providers/aws/services/ec2/ec2_routes.h"
#include "providers/aws/services/ec2/ec2_types.h"
#include "providers/aws/services/ec2/ec2_wait.h"

namespace strata::aws {
namespace {

using namespace attrs;

constexpr const char* kTableNotFound = "InvalidRouteTableID.NotFound";

//! The destination attribute that `destination` belongs in.
const char* DestinationAttribute(const std::string& destination) {
  if (destination.find(':') != std::string::npos) return "destination_ipv6_cidr_block";
  if (destination.rfind("pl-", 0) == 0) return "destination_prefix_list_id";
  return "destination_cidr_block";
}

class AwsRoute final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    std::map<std::string, AttributeSchema> attributes = {{"route_table_id", Required("string", true)},
                                                         {"instance_id", Computed("string")},
                                                         {"instance_owner_id", Computed("string")},
                                                         {"origin", Computed("string")},
                                                         {"state", Computed("string")}};
    for (const std::string& name : RouteDestinationAttributes(RouteNames::Resource)) {
      attributes[name] = Optional("string", true);
    }
    for (const std::string& name : RouteTargetAttributes()) attributes[name] = Optional("string");
    return ManagedSchema("aws_route", std::move(attributes));
  }

  Diagnostics Validate(const Value& config) const override {
    auto count = [&](const std::vector<std::string>& names) {
      int n = 0;
      for (const std::string& name : names) n += Get(config, name).IsNull() ? 0 : 1;
      return n;
    };
    if (count(RouteDestinationAttributes(RouteNames::Resource)) != 1) {
      return Error("Invalid route destination",
                   "Exactly one of destination_cidr_block, destination_ipv6_cidr_block and "
                   "destination_prefix_list_id must be set.");
    }
    if (count(RouteTargetAttributes()) != 1) {
      return Error("Invalid route target",
                   "Exactly one target (gateway_id, nat_gateway_id, network_interface_id, "
                   "transit_gateway_id, ...) must be set.");
    }
    return {};
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string table = GetString(planned, "route_table_id");
    std::string id = RouteId(table, RouteDestination(planned, RouteNames::Resource));
    QueryRequest call = RouteCall("CreateRoute", table, planned, RouteNames::Resource);
    Result<XmlResponse> created = CallEc2(*session_, ctx, call, CreateCallOptionsFor(ctx));
    if (!created.ok()) return CreateFailed(call.action, created.error());
    return ReadAfterWrite(ctx, planned, id, WaitUntilListed(ctx, planned));
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    (void)prior;
    std::string table = GetString(planned, "route_table_id");
    Diagnostics diags = RunEc2(*session_, ctx, RouteCall("ReplaceRoute", table, planned, RouteNames::Resource));
    return ReadAfterWrite(ctx, planned, GetString(prior, "id"), diags);
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    std::string table = GetString(prior, "route_table_id");
    QueryRequest call = Ec2Call("DescribeRouteTables");
    call.Add("RouteTableId.1", table);
    Result<XmlResponse> described = CallEc2(*session_, ctx, call);
    if (!described.ok()) {
      if (described.error().code == kTableNotFound) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("DescribeRouteTables", described.error())};
    }
    return FromTable(described->result.child("routeTableSet").child("item"), prior);
  }

  bool ReadsInBatches() const override { return true; }
  //! The routes' tables in DescribeRouteTables filtered on up to 200 table ids (pages of
  //! 100, its most); a route whose table is not listed is gone, as Read says.
  std::vector<ReadResult> ReadMany(const OperationContext& ctx, const std::vector<Value>& priors) override {
    return ReadByDescribe(*session_, ctx, priors, "route_table_id",
                          {"DescribeRouteTables", "routeTableSet", "route-table-id", "routeTableId", 100}, FromTable,
                          [&](const Value& prior) { return Read(ctx, prior); });
  }

  //! The route `prior` names, as its table `item` lists it; gone when it does not.
  static ReadResult FromTable(pugi::xml_node item, const Value& prior) {
    std::string table = GetString(prior, "route_table_id");
    std::string destination = RouteDestination(prior, RouteNames::Resource);
    for (pugi::xml_node r : ManagedRoutes(item)) {
      if (RouteDestination(r) != destination) continue;
      ValueMap state;
      Value fields = RouteValue(r, RouteNames::Resource);  // named: AsMap() refers into it
      for (const auto& [name, value] : fields.AsMap()) {
        state[name] = value.AsString().empty() ? Value() : value;
      }
      state["id"] = Value::String(RouteId(table, destination));
      state["route_table_id"] = Value::String(table);
      state["instance_id"] = Value::String(r.child_value("instanceId"));
      state["instance_owner_id"] = Value::String(r.child_value("instanceOwnerId"));
      state["origin"] = Value::String(r.child_value("origin"));
      state["state"] = Value::String(r.child_value("state"));
      return {Value::Object(std::move(state)), false, {}};
    }
    return {Value(), true, {}};
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    QueryRequest call = DeleteRouteCall(GetString(prior, "route_table_id"), RouteDestination(prior, RouteNames::Resource));
    Result<XmlResponse> deleted = CallEc2(*session_, ctx, call);
    if (deleted.ok()) return {};
    const std::string& code = deleted.error().code;
    if (code == "InvalidRoute.NotFound" || code == kTableNotFound) return {};
    return {AwsErrorDiag("DeleteRoute", deleted.error())};
  }

  //! "rtb-0123_10.0.0.0/16" (Terraform's import id).
  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    size_t cut = id.find('_');
    if (cut == std::string::npos || cut == 0 || cut + 1 == id.size()) {
      return {Value(), Error("Invalid import id", "An aws_route is imported as \"<route table id>_<destination>\", "
                                                  "e.g. rtb-0123456789abcdef0_10.0.0.0/16; got \"" + id + "\".")};
    }
    std::string table = id.substr(0, cut), destination = id.substr(cut + 1);
    ReadResult read = Read(ctx, Value::Object({{"route_table_id", Value::String(table)},
                                               {DestinationAttribute(destination), Value::String(destination)}}));
    ApplyResult result{read.state, read.diags};
    if (read.gone) {
      result.diags.Error("Cannot import non-existent remote object",
                         "Route table " + table + " has no route to " + destination + ".");
    }
    return result;
  }

 protected:
  //! The route to the planned destination in the planned table: another target means
  //! another writer's route.
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    ReadResult found = Read(ctx, planned);
    if (found.gone || found.diags.HasErrors()) return found;
    std::string want = RouteTarget(planned), have = RouteTarget(found.state);
    if (want == have) return found;
    std::string table = GetString(planned, "route_table_id");
    std::string destination = RouteDestination(planned, RouteNames::Resource);
    return NotCreatedByThisApply(ctx, "The route to " + destination + " in route table " + table,
                                  "it goes to " + have + ", not to " + want, table + "_" + destination);
  }

  //! What FindCreated found is already what was planned.
  ApplyResult Adopt(const OperationContext& ctx, const Value& found, const Value& planned) override {
    (void)ctx, (void)planned;
    return {found, {}};
  }

 private:
  Diagnostics WaitUntilListed(const OperationContext& ctx, const Value& planned) {
    // Routes show up in DescribeRouteTables shortly after CreateRoute returns.
    return aws::WaitUntilListed(*session_, ctx,
                                "the route to " + RouteDestination(planned, RouteNames::Resource) + " to be listed",
                                [&] { return Read(ctx, planned); });
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsRoute(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsRoute>(std::move(session));
}

}  // namespace strata::aws
