// The STS service (query protocol, API version 2011-06-15): reads the call's Action, finds
// it in the table sts_identity.cc and sts_assume_role.cc fill, and answers in STS's XML.
// GET requests work too (EKS tokens are presigned GetCallerIdentity URLs): the
// parameters come from the query string then.

#include "sandbox/service.h"
#include "sandbox/services/iam/iam_xml.h"
#include "sandbox/services/sts/sts_call.h"

namespace strata::sandbox {
namespace {

class StsService final : public Service {
 public:
  StsService() {
    sts::AddIdentityActions(actions_);
    sts::AddAssumeRoleActions(actions_);
  }

  std::string name() const override { return "sts"; }
  Protocol protocol() const override { return Protocol::Query; }

  Response Handle(ServiceContext& ctx) override {
    iam::Params params(ctx.request.Params());
    const auto& entry = iam::FindAction(params, actions_, sts::kStsVersion);
    iam::QueryAnswer answer(params.Get("Action"), iam::kStsXmlns, /*with_result=*/true);
    sts::StsCall call{ctx, params, answer.result()};
    entry(call);
    return answer.Finish(ctx.request.request_id);
  }

 private:
  sts::StsActionTable actions_;
};

}  // namespace

std::unique_ptr<Service> NewStsService() { return std::make_unique<StsService>(); }

}  // namespace strata::sandbox
