// The SQS service (awsJson 1.0, target prefix AmazonSQS, as current SDKs and the AWS CLI
// speak it): queues made, found, described, changed, tagged and deleted. CreateQueue is
// idempotent as SQS's is: the same name with the same attributes answers the same queue,
// another value of an attribute is QueueNameExists. Messages are not kept (nothing in
// Strata sends them); the message counts read 0.

#include <algorithm>

#include "sandbox/json_service.h"
#include "sandbox/services/sqs/sqs_queues.h"

namespace strata::sandbox {
namespace sqs {
namespace {

constexpr size_t kMaxQueueTags = 50;

Json UrlAnswer(const ServiceContext& ctx, const Json& queue) {
  return Json{{"QueueUrl", QueueUrl(ctx, queue["name"].get<std::string>())}};
}

std::map<std::string, std::string> CheckedTags(const std::map<std::string, std::string>& tags) {
  if (tags.size() > kMaxQueueTags) throw ApiError(400, "InvalidParameterValue", "Too many tags: at most 50.");
  for (const auto& [key, value] : tags) {
    if (key.empty() || key.size() > 128 || value.size() > 256) {
      throw ApiError(400, "InvalidParameterValue", "Tag keys must be 1 to 128 characters, values at most 256.");
    }
  }
  return tags;
}

Json CreateQueue(JsonCall& call) {
  std::string name = RequiredJsonString(call.input, "QueueName");
  Attributes given = JsonStringMap(call.input, "Attributes");
  CheckQueueName(name, given.count("FifoQueue") > 0);
  if (std::optional<Json> existing = FindQueue(call.ctx, name)) {
    Attributes current = AllAttributes(*existing);
    for (const auto& [attribute, value] : given) {
      auto it = current.find(attribute);
      std::string have = it == current.end() ? "" : it->second;
      if (have != value) {
        throw ApiError(400, "QueueNameExists",
                       "A queue already exists with the same name and a different value for attribute " + attribute);
      }
    }
    return UrlAnswer(call.ctx, *existing);
  }
  Json queue = {{"region", RegionOf(call.ctx)},
                {"name", name},
                {"attributes", NewQueueAttributes(call.ctx, name, given)},
                {"tags", CheckedTags(JsonStringMap(call.input, "tags"))}};
  SaveQueue(call.ctx, queue);
  return UrlAnswer(call.ctx, queue);
}

Json GetQueueUrl(JsonCall& call) {
  std::string name = RequiredJsonString(call.input, "QueueName");
  std::string owner = OptionalJsonString(call.input, "QueueOwnerAWSAccountId");
  std::optional<Json> queue;
  if (owner.empty() || owner == call.account()) queue = FindQueue(call.ctx, name);
  if (!queue) throw ApiError(400, "QueueDoesNotExist", "The specified queue does not exist.");
  return UrlAnswer(call.ctx, *queue);
}

Json GetQueueAttributes(JsonCall& call) {
  Json queue = RequireQueue(call.ctx, RequiredJsonString(call.input, "QueueUrl"));
  Attributes all = AllAttributes(queue);
  std::vector<std::string> wanted;
  if (call.input.contains("AttributeNames") && call.input["AttributeNames"].is_array()) {
    for (const Json& name : call.input["AttributeNames"]) {
      if (name.is_string()) wanted.push_back(name.get<std::string>());
    }
  }
  bool every = std::find(wanted.begin(), wanted.end(), "All") != wanted.end();
  Json out = Json::object();
  for (const auto& [name, value] : all) {
    if (every || std::find(wanted.begin(), wanted.end(), name) != wanted.end()) out[name] = value;
  }
  for (const std::string& name : wanted) {
    if (name != "All" && !all.count(name) && name != "Policy" && name != "RedrivePolicy" &&
        name != "RedriveAllowPolicy" && name != "KmsMasterKeyId" && name != "KmsDataKeyReusePeriodSeconds") {
      throw ApiError(400, "InvalidAttributeName", "Unknown Attribute " + name + ".");
    }
  }
  return out.empty() ? Json::object() : Json{{"Attributes", out}};
}

Json SetQueueAttributes(JsonCall& call) {
  Json queue = RequireQueue(call.ctx, RequiredJsonString(call.input, "QueueUrl"));
  Attributes given = JsonStringMap(call.input, "Attributes");
  Attributes current = queue["attributes"].get<Attributes>();
  Attributes changed = CheckedAttributes(given, current, /*creating=*/false);
  changed["LastModifiedTimestamp"] = std::to_string(static_cast<long long>(EpochSeconds(call.ctx.now)));
  queue["attributes"] = changed;
  SaveQueue(call.ctx, queue);
  return Json::object();
}

Json DeleteQueue(JsonCall& call) {
  EraseQueue(call.ctx, RequireQueue(call.ctx, RequiredJsonString(call.input, "QueueUrl")));
  return Json::object();
}

Json ListQueues(JsonCall& call) {
  std::string prefix = OptionalJsonString(call.input, "QueueNamePrefix");
  Json urls = Json::array();
  for (const std::string& name : QueueNames(call.ctx)) {
    if (name.compare(0, prefix.size(), prefix) == 0) urls.push_back(QueueUrl(call.ctx, name));
  }
  if (urls.size() > 1000) urls.erase(urls.begin() + 1000, urls.end());
  return urls.empty() ? Json::object() : Json{{"QueueUrls", urls}};
}

Json TagQueue(JsonCall& call) {
  Json queue = RequireQueue(call.ctx, RequiredJsonString(call.input, "QueueUrl"));
  std::map<std::string, std::string> tags = queue["tags"].get<std::map<std::string, std::string>>();
  for (const auto& [key, value] : JsonStringMap(call.input, "Tags")) tags[key] = value;
  queue["tags"] = CheckedTags(tags);
  SaveQueue(call.ctx, queue);
  return Json::object();
}

Json UntagQueue(JsonCall& call) {
  Json queue = RequireQueue(call.ctx, RequiredJsonString(call.input, "QueueUrl"));
  if (call.input.contains("TagKeys") && call.input["TagKeys"].is_array()) {
    for (const Json& key : call.input["TagKeys"]) {
      if (key.is_string()) queue["tags"].erase(key.get<std::string>());
    }
  }
  SaveQueue(call.ctx, queue);
  return Json::object();
}

Json ListQueueTags(JsonCall& call) {
  Json queue = RequireQueue(call.ctx, RequiredJsonString(call.input, "QueueUrl"));
  return queue["tags"].empty() ? Json::object() : Json{{"Tags", queue["tags"]}};
}

}  // namespace
}  // namespace sqs

std::unique_ptr<Service> NewSqsService() {
  JsonActionTable actions = {{"CreateQueue", sqs::CreateQueue},
                             {"GetQueueUrl", sqs::GetQueueUrl},
                             {"GetQueueAttributes", sqs::GetQueueAttributes},
                             {"SetQueueAttributes", sqs::SetQueueAttributes},
                             {"DeleteQueue", sqs::DeleteQueue},
                             {"ListQueues", sqs::ListQueues},
                             {"TagQueue", sqs::TagQueue},
                             {"UntagQueue", sqs::UntagQueue},
                             {"ListQueueTags", sqs::ListQueueTags}};
  return NewJsonService("sqs", {"AmazonSQS", "1.0"}, std::move(actions));
}

}  // namespace strata::sandbox
