// The IAM service (query protocol, API version 2010-05-08): reads the call's Action,
// finds it in the table the iam_<family>.cc files fill, and answers in IAM's XML. IAM is
// global: the request's region does not scope anything.

#include "sandbox/service.h"
#include "sandbox/services/iam/iam_call.h"
#include "sandbox/services/iam/iam_xml.h"

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
    const auto& entry = iam::FindAction(params, actions_, iam::kIamVersion);
    iam::QueryAnswer answer(params.Get("Action"), iam::kIamXmlns, entry.has_result);
    iam::IamCall call{ctx, params, answer.result()};
    entry.handler(call);
    return answer.Finish(ctx.request.request_id);
  }

 private:
  iam::IamActionTable actions_;
};

}  // namespace

std::unique_ptr<Service> NewIamService() { return std::make_unique<IamService>(); }

}  // namespace strata::sandbox
