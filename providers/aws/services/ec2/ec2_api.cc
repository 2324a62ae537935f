#include "providers/aws/services/ec2/ec2_api.h"

#include <algorithm>
#include <map>
#include <set>

#include "providers/attributes.h"

namespace strata::aws {

QueryRequest Ec2Call(const std::string& action) { return QueryRequest{action, kEc2Version, {}}; }

Result<XmlResponse> CallEc2(const AwsSession& session, const OperationContext& ctx,
                            const QueryRequest& call) {
  return CallQuery(session, ctx, "ec2", call, CallOptionsFor(ctx));
}

Result<XmlResponse> CallEc2(const AwsSession& session, const OperationContext& ctx,
                            const QueryRequest& call, const CallOptions& options) {
  return CallQuery(session, ctx, "ec2", call, options);
}

Diagnostics RunEc2(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call) {
  return RunQuery(session, ctx, "ec2", call);
}

Diagnostics RunEc2(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call,
                   const AlreadyDoneCodes& done) {
  return RunQuery(session, ctx, "ec2", call, done);
}

void AddFilter(QueryRequest& call, int n, const std::string& name, const std::string& value) {
  std::string prefix = "Filter." + std::to_string(n);
  call.Add(prefix + ".Name", name).Add(prefix + ".Value.1", value);
}

std::optional<AwsError> DescribeFilteredPages(const AwsSession& session, const OperationContext& ctx,
                                              QueryRequest call, const std::string& item_set,
                                              const std::string& filter, const std::vector<std::string>& values,
                                              int page_size, const std::function<void(pugi::xml_node item)>& each) {
  call.Add("Filter.1.Name", filter);
  for (size_t k = 0; k < values.size(); ++k) call.Add("Filter.1.Value." + std::to_string(k + 1), values[k]);
  if (page_size > 0) call.Add("MaxResults", std::to_string(page_size));
  for (std::string token;;) {
    QueryRequest page = call;
    if (!token.empty()) page.Add("NextToken", token);
    Result<XmlResponse> described = CallEc2(session, ctx, page);
    if (!described.ok()) return described.error();
    for (pugi::xml_node item : described->result.child(item_set.c_str()).children("item")) each(item);
    token = described->result.child_value("nextToken");
    if (token.empty()) return std::nullopt;
  }
}

std::vector<ReadResult> ReadByIds(
    const std::vector<Value>& priors, const std::string& key,
    const std::function<std::optional<AwsError>(const std::vector<std::string>& ids, const Ec2Found& found)>& describe,
    const std::function<ReadResult(const Value& prior)>& read_one) {
  std::vector<ReadResult> results(priors.size());
  std::vector<size_t> by_id;  // the objects a filtered Describe* can name
  for (size_t i = 0; i < priors.size(); ++i) {
    if (attrs::GetString(priors[i], key).empty()) results[i] = read_one(priors[i]);
    else by_id.push_back(i);
  }
  for (size_t begin = 0; begin < by_id.size(); begin += kMaxFilterValues) {
    size_t end = std::min(by_id.size(), begin + kMaxFilterValues);
    std::map<std::string, std::vector<size_t>> wanted;  // id -> the priors naming it
    for (size_t k = begin; k < end; ++k) wanted[attrs::GetString(priors[by_id[k]], key)].push_back(by_id[k]);
    std::vector<std::string> ids;
    for (const auto& [id, at] : wanted) ids.push_back(id);
    std::set<size_t> answered;
    std::optional<AwsError> failed = describe(ids, [&](const std::string& id, const Ec2ItemReader& state) {
      auto it = wanted.find(id);
      if (it == wanted.end()) return;
      for (size_t i : it->second) {
        if (answered.insert(i).second) results[i] = state(priors[i]);
      }
    });
    for (size_t k = begin; k < end; ++k) {
      size_t i = by_id[k];
      if (failed) results[i] = read_one(priors[i]);
      else if (!answered.count(i)) results[i] = {Value(), true, {}};
    }
  }
  return results;
}

std::vector<ReadResult> ReadByDescribe(const AwsSession& session, const OperationContext& ctx,
                                       const std::vector<Value>& priors, const std::string& key,
                                       const Ec2BatchDescribe& describe,
                                       const std::function<ReadResult(pugi::xml_node item, const Value& prior)>& state,
                                       const std::function<ReadResult(const Value& prior)>& read_one) {
  return ReadByIds(
      priors, key,
      [&](const std::vector<std::string>& ids, const Ec2Found& found) {
        return DescribeFilteredPages(session, ctx, Ec2Call(describe.action), describe.item_set, describe.filter, ids,
                                     describe.page_size, [&](pugi::xml_node item) {
                                       found(item.child_value(describe.id_element.c_str()),
                                             [&](const Value& prior) { return state(item, prior); });
                                     });
      },
      read_one);
}

}  // namespace strata::aws
