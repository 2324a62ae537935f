#pragma once
// Calling EC2 (query protocol, API version 2016-11-15) from a resource type.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <pugixml.hpp>

#include "providers/aws/common/aws_session.h"
#include "providers/provider.h"

namespace strata::aws {

inline constexpr const char* kEc2Version = "2016-11-15";

//! An EC2 call with no parameters yet.
QueryRequest Ec2Call(const std::string& action);

//! Sends `call` to EC2 with the context's deadline and cancellation.
Result<XmlResponse> CallEc2(const AwsSession& session, const OperationContext& ctx,
                            const QueryRequest& call);
//! The same with explicit options (CreateCallOptionsFor(ctx) for a create's own call).
Result<XmlResponse> CallEc2(const AwsSession& session, const OperationContext& ctx,
                            const QueryRequest& call, const CallOptions& options);

//! Sends `call` and turns a failure into a diagnostic naming the action; an empty action
//! (nothing to do) succeeds without a call.
Diagnostics RunEc2(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call);
//! RunEc2 of a call that refuses work already done with one of `done` (see
//! DoneByAnEarlierAttempt): such an answer to a retry counts as success.
Diagnostics RunEc2(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call,
                   const AlreadyDoneCodes& done);

//! Adds Filter.<n>.Name / Filter.<n>.Value.1.
void AddFilter(QueryRequest& call, int n, const std::string& name, const std::string& value);

//! The most values EC2 takes in one filter (more is FilterLimitExceeded).
inline constexpr size_t kMaxFilterValues = 200;

//! A Describe* (`call`, its other parameters set) filtered on `filter` being any of `values`
//! (at most kMaxFilterValues), every page of it: MaxResults `page_size` (0 when the call
//! does not page) and NextToken until the last page. `each` sees every item of the answers'
//! `item_set`. Returns the error of the first page that failed.
std::optional<AwsError> DescribeFilteredPages(const AwsSession& session, const OperationContext& ctx,
                                              QueryRequest call, const std::string& item_set,
                                              const std::string& filter, const std::vector<std::string>& values,
                                              int page_size, const std::function<void(pugi::xml_node item)>& each);

//! What a batch read's answer says of one object: its state, given its prior.
using Ec2ItemReader = std::function<ReadResult(const Value& prior)>;
//! Reports an object a batch read's answer lists: its id and how to make its state.
using Ec2Found = std::function<void(const std::string& id, const Ec2ItemReader& state)>;

//! The batch read the EC2 types share: the priors' ids (their attribute `key`: "id", or the
//! id of the object they live in, as a route's "route_table_id"), kMaxFilterValues to a
//! call, go to `describe`, which reports each object its answers list with `found`; a
//! prior whose id they do not list is gone (as the single read's *.NotFound says). When
//! `describe` fails, each prior of that call is read alone with `read_one`, so each gets
//! its own answer. A prior without an id is read alone too. One result per prior.
std::vector<ReadResult> ReadByIds(
    const std::vector<Value>& priors, const std::string& key,
    const std::function<std::optional<AwsError>(const std::vector<std::string>& ids, const Ec2Found& found)>& describe,
    const std::function<ReadResult(const Value& prior)>& read_one);

//! A Describe* that a batch read filters on ids: DescribeRouteTables, its items in
//! "routeTableSet", filtered on "route-table-id", each naming itself in <routeTableId>,
//! MaxResults 100 (0: the call does not page).
struct Ec2BatchDescribe {
  std::string action;
  std::string item_set;
  std::string filter;
  std::string id_element;
  int page_size = 0;
};

//! ReadByIds over one Describe* whose items are the objects the priors' `key` names (or the
//! objects that hold them: a route's table): `state(item, prior)` reads an object from its
//! item.
std::vector<ReadResult> ReadByDescribe(const AwsSession& session, const OperationContext& ctx,
                                       const std::vector<Value>& priors, const std::string& key,
                                       const Ec2BatchDescribe& describe,
                                       const std::function<ReadResult(pugi::xml_node item, const Value& prior)>& state,
                                       const std::function<ReadResult(const Value& prior)>& read_one);

//! EC2's "true"/"false" text.
inline const char* BoolText(bool b) { return b ? "true" : "false"; }

}  // namespace strata::aws
