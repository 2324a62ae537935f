// The IAM service (query protocol, API version 2010-05-08): reads the call's Action,
// finds it in the table the iam_<family>.cc files fill, and answers in IAM's XML. IAM is
// global: the request's region does not scope anything.

#include "sandbox/service.h"
#include "sandbox/services/iam_call.h"
#include "sandbox/services/iam_xml.h"

namespace strata::sandbox {
namespace {

class IamService final : public Service {
 public:
  IamService() {
    iam::AddRoleActions(actions_);
    iam::AddRolePolicyActions(actions_);
    iam::AddManagedPolicyActions(actions_);
    iam::AddAttachmentActions(actions_);
    iam::AddOidcProviderActions(actions_);
    iam::AddInstanceProfileActions(actions_);
  }

  std::string name() const override { return "iam"; }
  Protocol protocol() const override { return Protocol::Query; }

  Response Handle(ServiceContext& ctx) override {
    iam::Params params(ctx.request.Params());
    std::string action = params.Get("Action");
    if (action.empty()) {
      throw ApiError(400, "MissingAction", "The request must contain the parameter Action.");
    }
    std::string version = params.Get("Version", iam::kIamVersion);
    auto it = actions_.find(action);
    if (it == actions_.end() || version != iam::kIamVersion) {
      throw ApiError(400, "InvalidAction",
                     "Could not find operation " + action + " for version " + version);
    }
    iam::QueryAnswer answer(action, iam::kIamXmlns, it->second.has_result);
    iam::IamCall call{ctx, params, answer.result()};
    it->second.handler(call);
    return answer.Finish(ctx.request.request_id);
  }

 private:
  iam::IamActionTable actions_;
};

}  // namespace

std::unique_ptr<Service> NewIamService() { return std::make_unique<IamService>(); }

}  // namespace strata::sandbox
