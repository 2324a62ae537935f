#pragma once
// A sandbox service speaking the awsQuery protocol (IAM, STS): one table of actions, each
// answering through a QueryCall. The service finds the call's Action (MissingAction,
// InvalidAction for an unknown one or another Version), writes the <ActionResponse>
// envelope around what the handler writes, and refuses with the protocol's error shape
// when the handler throws ApiError (sandbox/protocol/query_dispatch.h).

#include <memory>
#include <pugixml.hpp>
#include <string>

#include "sandbox/protocol/aws_query_params.h"
#include "sandbox/protocol/query_dispatch.h"
#include "sandbox/service.h"

namespace strata::sandbox {

//! One awsQuery call being answered.
struct QueryCall {
  ServiceContext& ctx;
  const AwsQueryParams& params;
  //! Where the handler writes its answer: the <ActionResult> element (a detached node for
  //! actions without an output shape).
  pugi::xml_node result;

  World& world() const { return ctx.world; }
  const std::string& account() const { return ctx.settings.account_id; }
  //! The call's time as the query APIs write it (IsoTime).
  std::string Now() const { return IsoTime(ctx.now); }
};

using QueryCallTable = QueryActionTable<QueryCall>;

//! The service `name` ("iam", "sts"): Protocol::Query, answering from `actions`.
std::unique_ptr<Service> NewQueryService(std::string name, QueryApi api, QueryCallTable actions);

}  // namespace strata::sandbox
