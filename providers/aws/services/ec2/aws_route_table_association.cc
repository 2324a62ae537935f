// aws_route_table_association: a subnet's (or an edge gateway's) link to a route table,
// over EC2's AssociateRouteTable / ReplaceRouteTableAssociation / DisassociateRouteTable and
// DescribeRouteTables, with Terraform's attribute names. Moving to another route table is
// done in place with ReplaceRouteTableAssociation, which gives the association a new id.
// Import takes "<subnet id or gateway id>/<route table id>". The subnet (or gateway) is the
// natural key — it has at most one association — so an interrupted create is found again
// by it, and adopted when it links to the planned route table.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/ec2/ec2_api.h"
#include "providers/aws/services/ec2/ec2_types.h"
#include "providers/aws/services/ec2/ec2_wait.h"

namespace strata::aws {
namespace {

using namespace attrs;

constexpr const char* kNotFound = "InvalidAssociationID.NotFound";

Value NonEmpty(const char* text) { return *text ? Value::String(text) : Value(); }

class AwsRouteTableAssociation final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_route_table_association", {{"subnet_id", Optional("string", true)},
                                                         {"gateway_id", Optional("string", true)},
                                                         {"route_table_id", Required("string")}});
  }

  Diagnostics Validate(const Value& config) const override {
    if (Get(config, "subnet_id").IsNull() == Get(config, "gateway_id").IsNull()) {
      return Error("Invalid route table association", "Exactly one of subnet_id and gateway_id must be set.");
    }
    return {};
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    QueryRequest call = Ec2Call("AssociateRouteTable");
    call.Add("RouteTableId", GetString(planned, "route_table_id"));
    std::string subnet = GetString(planned, "subnet_id");
    if (!subnet.empty()) call.Add("SubnetId", subnet);
    std::string gateway = GetString(planned, "gateway_id");
    if (!gateway.empty()) call.Add("GatewayId", gateway);
    Result<XmlResponse> created = CallEc2(*session_, ctx, call, CreateCallOptionsFor(ctx));
    if (!created.ok()) return CreateFailed("AssociateRouteTable", created.error());
    std::string id = XmlText(created->result, "associationId");
    return ReadAfterWrite(ctx, planned, id, WaitUntilListed(ctx, id));
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    QueryRequest call = Ec2Call("ReplaceRouteTableAssociation");
    call.Add("AssociationId", GetString(prior, "id")).Add("RouteTableId", GetString(planned, "route_table_id"));
    Result<XmlResponse> replaced = CallEc2(*session_, ctx, call);
    if (!replaced.ok()) {
      return ReadAfterWrite(ctx, planned, GetString(prior, "id"),
                            AwsErrorDiag("ReplaceRouteTableAssociation", replaced.error()));
    }
    std::string id = XmlText(replaced->result, "newAssociationId");
    return ReadAfterWrite(ctx, planned, id, WaitUntilListed(ctx, id));
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    std::string id = GetString(prior, "id");
    QueryRequest call = Ec2Call("DescribeRouteTables");
    AddFilter(call, 1, "association.route-table-association-id", id);
    return ReadMatching(ctx, call, [&](pugi::xml_node a) { return id == a.child_value("routeTableAssociationId"); });
  }

  bool ReadsInBatches() const override { return true; }
  //! DescribeRouteTables filtered on up to 200 association ids (in pages of 100, its most),
  //! as Read filters on one (ReadByIds: one not listed is gone; a failed call is done again
  //! association by association).
  std::vector<ReadResult> ReadMany(const OperationContext& ctx, const std::vector<Value>& priors) override {
    return ReadByIds(
        priors, "id",
        [&](const std::vector<std::string>& ids, const Ec2Found& found) {
          return DescribeFilteredPages(*session_, ctx, Ec2Call("DescribeRouteTables"), "routeTableSet",
                                       "association.route-table-association-id", ids, 100, [&](pugi::xml_node table) {
                                         for (pugi::xml_node a : table.child("associationSet").children("item")) {
                                           if (!Current(a)) continue;
                                           found(a.child_value("routeTableAssociationId"),
                                                 [&](const Value&) { return ReadResult{StateOf(a), false, {}}; });
                                         }
                                       });
        },
        [&](const Value& prior) { return Read(ctx, prior); });
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    QueryRequest call = Ec2Call("DisassociateRouteTable");
    call.Add("AssociationId", GetString(prior, "id"));
    Result<XmlResponse> done = CallEc2(*session_, ctx, call);
    if (done.ok() || done.error().code == kNotFound) return {};
    return {AwsErrorDiag("DisassociateRouteTable", done.error())};
  }

  //! "subnet-0123/rtb-0456" or "igw-0123/rtb-0456" (Terraform's import ids).
  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    size_t cut = id.find('/');
    if (cut == std::string::npos || cut == 0 || cut + 1 == id.size()) {
      return {Value(), Error("Invalid import id", "An aws_route_table_association is imported as "
                                                  "\"<subnet or gateway id>/<route table id>\"; got \"" + id + "\".")};
    }
    std::string target = id.substr(0, cut), table = id.substr(cut + 1);
    QueryRequest call = Ec2Call("DescribeRouteTables");
    call.Add("RouteTableId.1", table);
    ReadResult read = ReadMatching(ctx, call, Of(target));
    ApplyResult result{read.state, read.diags};
    if (read.gone) {
      result.diags.Error("Cannot import non-existent remote object",
                         "Route table " + table + " is not associated with " + target + ".");
    }
    return result;
  }

 protected:
  //! The association of the planned subnet (or gateway): one to another route table is
  //! another writer's.
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    std::string subnet = GetString(planned, "subnet_id");
    std::string target = subnet.empty() ? GetString(planned, "gateway_id") : subnet;
    QueryRequest call = Ec2Call("DescribeRouteTables");
    AddFilter(call, 1, subnet.empty() ? "association.gateway-id" : "association.subnet-id", target);
    ReadResult found = ReadMatching(ctx, call, Of(target));
    if (found.gone || found.diags.HasErrors()) return found;
    std::string want = GetString(planned, "route_table_id"), have = GetString(found.state, "route_table_id");
    if (want == have) return found;
    return NotCreatedByThisApply(ctx, "The route table association of " + target,
                                  "it links " + target + " to " + have + ", not to " + want, target + "/" + have);
  }

  //! What FindCreated found is already what was planned.
  ApplyResult Adopt(const OperationContext& ctx, const Value& found, const Value& planned) override {
    (void)ctx, (void)planned;
    return {found, {}};
  }

 private:
  //! Matches the associations of subnet or gateway `target`.
  static std::function<bool(pugi::xml_node)> Of(const std::string& target) {
    return [target](pugi::xml_node a) { return target == a.child_value("subnetId") || target == a.child_value("gatewayId"); };
  }

  //! The state of the first live association matching `match` in the tables `call` lists.
  //! An association that still links (not disassociated, nor on its way out, nor failed).
  static bool Current(pugi::xml_node a) {
    std::string state = XmlText(a, "associationState/state");
    return state != "disassociated" && state != "disassociating" && state != "failed";
  }
  static Value StateOf(pugi::xml_node a) {
    return Value::Object({{"id", Value::String(a.child_value("routeTableAssociationId"))},
                          {"route_table_id", Value::String(a.child_value("routeTableId"))},
                          {"subnet_id", NonEmpty(a.child_value("subnetId"))},
                          {"gateway_id", NonEmpty(a.child_value("gatewayId"))}});
  }

  ReadResult ReadMatching(const OperationContext& ctx, const QueryRequest& call,
                          const std::function<bool(pugi::xml_node)>& match) {
    Result<XmlResponse> described = CallEc2(*session_, ctx, call);
    if (!described.ok()) {
      if (described.error().code == "InvalidRouteTableID.NotFound") return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("DescribeRouteTables", described.error())};
    }
    for (pugi::xml_node table : described->result.child("routeTableSet").children("item")) {
      for (pugi::xml_node a : table.child("associationSet").children("item")) {
        if (match(a) && Current(a)) return {StateOf(a), false, {}};
      }
    }
    return {Value(), true, {}};
  }

  Diagnostics WaitUntilListed(const OperationContext& ctx, const std::string& id) {
    return aws::WaitUntilListed(*session_, ctx, "route table association " + id + " to be listed",
                                [&] { return Read(ctx, Value::Object({{"id", Value::String(id)}})); });
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsRouteTableAssociation(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsRouteTableAssociation>(std::move(session));
}

}  // namespace strata::aws
