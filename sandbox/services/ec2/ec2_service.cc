// The sandbox's EC2: the query protocol (Action=...&Version=2016-11-15), answered in EC2's
// XML. Each object kind registers its actions (ec2_actions.h); this file only dispatches.

#include "sandbox/protocol/ec2_response.h"
#include "sandbox/service.h"
#include "sandbox/services/ec2/ec2_actions.h"

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
  AddLaunchTemplateActions(actions);
  AddImageActions(actions);
  return actions;
}

class Ec2Service final : public Service {
 public:
  std::string name() const override { return "ec2"; }
  Protocol protocol() const override { return Protocol::Ec2Query; }

  Response Handle(ServiceContext& ctx) override {
    Ec2Call call(ctx);
    auto handler = actions_.find(call.RequireAction());
    if (handler == actions_.end()) throw InvalidEc2Action(call.action());
    Ec2ResponseWriter answer(call.action(), kNamespace, ctx.request.request_id);
    handler->second(call, answer.root());
    return answer.Finish();
  }

 private:
  const Ec2Actions actions_ = AllActions();
};

}  // namespace

std::unique_ptr<Service> NewEc2Service() { return std::make_unique<Ec2Service>(); }

}  // namespace strata::sandbox
