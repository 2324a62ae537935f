// The IAM service (query protocol, API version 2010-05-08): the actions the
// iam_<family>.cc files add, served as a query service (sandbox/query_service.h) that
// answers in IAM's XML. IAM is global: the request's region does not scope anything.

#include "sandbox/query_service.h"
#include "sandbox/service.h"
#include "sandbox/services/iam/iam_call.h"

namespace strata::sandbox {

std::unique_ptr<Service> NewIamService() {
  iam::IamActionTable actions;
  iam::AddRoleActions(actions);
  iam::AddRolePolicyActions(actions);
  iam::AddManagedPolicyActions(actions);
  iam::AddAttachmentActions(actions);
  iam::AddOidcProviderActions(actions);
  iam::AddInstanceProfileActions(actions);
  return NewQueryService("iam", {"2010-05-08", "https://iam.amazonaws.com/doc/2010-05-08/"},
                         std::move(actions));
}

}  // namespace strata::sandbox
