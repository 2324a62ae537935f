// PLACEHOLDER: the iam service is being written; every call is refused until then.
#include "sandbox/service.h"

namespace strata::sandbox {
namespace {

class IamService final : public Service {
 public:
  std::string name() const override { return "iam"; }
  Protocol protocol() const override { return Protocol::Query; }
  Response Handle(ServiceContext& ctx) override {
    (void)ctx;
    throw ApiError(400, "InvalidAction", "The sandbox does not serve iam yet.");
  }
};

}  // namespace

std::unique_ptr<Service> NewIamService() { return std::make_unique<IamService>(); }

}  // namespace strata::sandbox
