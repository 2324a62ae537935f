// PLACEHOLDER: the eks service is being written; every call is refused until then.
#include "sandbox/service.h"

namespace strata::sandbox {
namespace {

class EksService final : public Service {
 public:
  std::string name() const override { return "eks"; }
  Protocol protocol() const override { return Protocol::RestJson; }
  Response Handle(ServiceContext& ctx) override {
    (void)ctx;
    throw ApiError(400, "InvalidAction", "The sandbox does not serve eks yet.");
  }
};

}  // namespace

std::unique_ptr<Service> NewEksService() { return std::make_unique<EksService>(); }

}  // namespace strata::sandbox
