#pragma once
// A sandbox service speaking the awsJson protocol (SQS, EventBridge, ...): POST / with
// X-Amz-Target "<prefix>.<Action>" and a JSON object body, answered with a JSON object. One
// table of actions; the service finds the action (400 UnknownOperationException for a
// missing or unknown target, as AWS answers), reads the body (400 SerializationException
// when it is not a JSON object), and answers with what the handler returns as
// application/x-amz-json-<version>. Handlers refuse by throwing ApiError, which the server
// renders as {"__type", "message"}.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sandbox/service.h"

namespace strata::sandbox {

//! One awsJson call being answered.
struct JsonCall {
  ServiceContext& ctx;
  const Json& input;  //!< the request body, a JSON object

  World& world() const { return ctx.world; }
  const std::string& account() const { return ctx.settings.account_id; }
};

using JsonHandler = Json (*)(JsonCall&);
using JsonActionTable = std::map<std::string, JsonHandler>;

//! An awsJson API: its target prefix ("AmazonSQS", "AWSEvents") and JSON version.
struct JsonApi {
  std::string target_prefix;
  std::string json_version;  //!< "1.0", "1.1"
};

//! The service `name` ("sqs", "events"): Protocol::AwsJson, answering from `actions`.
std::unique_ptr<Service> NewJsonService(std::string name, JsonApi api, JsonActionTable actions);

// Typed reads of an input member, refusing as the awsJson services do (400
// ValidationException naming the member; SQS names its own codes where it differs).
//! The string member `key`; absent or not a string: ValidationException.
std::string RequiredJsonString(const Json& input, const std::string& key);
//! The string member, or "" when absent; not a string: ValidationException.
std::string OptionalJsonString(const Json& input, const std::string& key);
//! The member as a map of strings (absent: empty); anything else: ValidationException.
std::map<std::string, std::string> JsonStringMap(const Json& input, const std::string& key);

//! One page of a list an awsJson call answers: the items [begin, end) of `total`, chosen by
//! the call's token member (tokens this sandbox issued: `token_prefix` and the offset of the
//! next item) and a page size. `items` are the list; the answer's member is filled in.
struct JsonPaging {
  const char* token_member;  //!< "NextToken", "nextToken"
  const char* token_prefix;  //!< what the sandbox's tokens start with: "acm-page-"
  ApiError bad_token;        //!< the refusal of a token the sandbox did not issue
};
//! `out[list_member]` = the page of `items` the call's token selects, `page_size` long, and
//! `out[paging.token_member]` the next page's token when there is one.
void AnswerJsonPage(const Json& input, const JsonPaging& paging, const std::vector<Json>& items, size_t page_size,
                    const char* list_member, Json& out);

}  // namespace strata::sandbox
