// The STS service (query protocol, API version 2011-06-15): the actions sts_identity.cc
// and sts_assume_role.cc add, served as a query service (sandbox/query_service.h) that
// answers in STS's XML. GET requests work too (EKS tokens are presigned
// GetCallerIdentity URLs): the parameters come from the query string then.

#include "sandbox/query_service.h"
#include "sandbox/service.h"
#include "sandbox/services/sts/sts_call.h"

namespace strata::sandbox {

std::unique_ptr<Service> NewStsService() {
  sts::StsActionTable actions;
  sts::AddIdentityActions(actions);
  sts::AddAssumeRoleActions(actions);
  return NewQueryService("sts", {"2011-06-15", "https://sts.amazonaws.com/doc/2011-06-15/"},
                         std::move(actions));
}

}  // namespace strata::sandbox
