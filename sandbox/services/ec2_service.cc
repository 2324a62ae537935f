// PLACEHOLDER: the ec2 service is being written; every call is refused until then.
#include "sandbox/service.h"

namespace strata::sandbox {
namespace {

class Ec2Service final : public Service {
 public:
  std::string name() const override { return "ec2"; }
  Protocol protocol() const override { return Protocol::Ec2Query; }
  Response Handle(ServiceContext& ctx) override {
    (void)ctx;
    throw ApiError(400, "InvalidAction", "The sandbox does not serve ec2 yet.");
  }
};

}  // namespace

std::unique_ptr<Service> NewEc2Service() { return std::make_unique<Ec2Service>(); }

}  // namespace strata::sandbox
