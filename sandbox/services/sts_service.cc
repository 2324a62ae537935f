// PLACEHOLDER: the sts service is being written; every call is refused until then.
#include "sandbox/service.h"

namespace strata::sandbox {
namespace {

class StsService final : public Service {
 public:
  std::string name() const override { return "sts"; }
  Protocol protocol() const override { return Protocol::Query; }
  Response Handle(ServiceContext& ctx) override {
    (void)ctx;
    throw ApiError(400, "InvalidAction", "The sandbox does not serve sts yet.");
  }
};

}  // namespace

std::unique_ptr<Service> NewStsService() { return std::make_unique<StsService>(); }

}  // namespace strata::sandbox
