// The sandbox's EC2: the query protocol (Action=...&Version=2016-11-15), answered in EC2's
// XML. Each object kind registers its actions (ec2_actions.h); this file only dispatches.

#include <pugixml.hpp>

#include "sandbox/service.h"
#include "sandbox/services/ec2/ec2_actions.h"
#include "sandbox/services/ec2/ec2_xml.h"

namespace strata::sandbox {
namespace {

constexpr const char* kNamespace = "http://ec2.amazonaws.com/doc/2016-11-15/";

Ec2Actions AllActions() {
  Ec2Actions actions;
  AddAvailabilityZoneActions(actions);
  AddVpcActions(actions);
  AddSubnetActions(actions);
  AddTagActions(actions);
  AddInternetGatewayActions(actions);
  AddAddressActions(actions);
  AddNatGatewayActions(actions);
  AddRouteTableActions(actions);
  AddSecurityGroupActions(actions);
  return actions;
}

class Ec2Service final : public Service {
 public:
  std::string name() const override { return "ec2"; }
  Protocol protocol() const override { return Protocol::Ec2Query; }

  Response Handle(ServiceContext& ctx) override {
    Ec2Call call(ctx);
    if (call.action().empty()) throw ApiError(400, "MissingAction", "The request must contain the parameter Action");
    auto handler = actions_.find(call.action());
    if (handler == actions_.end()) {
      throw ApiError(400, "InvalidAction", "The action " + call.action() + " is not valid for this web service.");
    }
    pugi::xml_document doc;
    pugi::xml_node root = doc.append_child((call.action() + "Response").c_str());
    root.append_attribute("xmlns").set_value(kNamespace);
    AddText(root, "requestId", ctx.request.request_id);
    handler->second(call, root);
    Response response;
    response.body = RenderEc2Response(doc);
    return response;
  }

 private:
  const Ec2Actions actions_ = AllActions();
};

}  // namespace

std::unique_ptr<Service> NewEc2Service() { return std::make_unique<Ec2Service>(); }

}  // namespace strata::sandbox
