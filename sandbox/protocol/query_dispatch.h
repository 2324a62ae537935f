#pragma once
// Answering one awsQuery call (IAM, STS) from a table of actions: find the Action (with
// the checks of aws_query_params.h: MissingAction, InvalidAction for an unknown action or
// another Version), open the <ActionResponse> envelope (query_response.h), let the
// action's handler write its result, close the envelope. `Call` is what the service's
// handlers take (IamCall, StsCall).

#include <map>
#include <pugixml.hpp>
#include <string>

#include "sandbox/protocol/aws_query_params.h"
#include "sandbox/protocol/query_response.h"

namespace strata::sandbox {

//! One action of an awsQuery API.
template <typename Call>
struct QueryAction {
  using Handler = void (*)(Call&);
  QueryAction() = default;
  //! Implicit, so that a table registers an action as `table["GetRole"] = GetRole;`.
  QueryAction(Handler handler, bool has_result = true)  // NOLINT(google-explicit-constructor)
      : handler(handler), has_result(has_result) {}

  Handler handler = nullptr;
  //! Whether the action has an output shape (<ActionResult>); Delete*, Tag*, Attach*... don't.
  bool has_result = true;
};

template <typename Call>
using QueryActionTable = std::map<std::string, QueryAction<Call>>;

//! An awsQuery API: the Version its calls must name and its documents' XML namespace.
struct QueryApi {
  std::string version;  //!< "2010-05-08"
  std::string xmlns;    //!< "https://iam.amazonaws.com/doc/2010-05-08/"
};

//! The answer to the call whose parameters are `params`: `make_call(result)` builds the
//! handler's Call around the <ActionResult> element. Throws ApiError to refuse.
template <typename Call, typename MakeCall>
Response AnswerQueryCall(const QueryApi& api, const QueryActionTable<Call>& table,
                         const AwsQueryParams& params, const std::string& request_id,
                         MakeCall make_call) {
  const QueryAction<Call>& action = FindAction(params, table, api.version);
  QueryResponseWriter answer(params.Action(), api.xmlns, action.has_result);
  Call call = make_call(answer.result());
  action.handler(call);
  return answer.Finish(request_id);
}

}  // namespace strata::sandbox
