#include "sandbox/services/sqs/sqs_queues.h"

#include <cctype>
#include <cstdlib>
#include <set>

namespace strata::sandbox::sqs {
namespace {

//! An integer attribute's range and default.
struct IntegerRule {
  long long min, max, fallback;
};

const std::map<std::string, IntegerRule>& IntegerRules() {
  static const std::map<std::string, IntegerRule> rules = {
      {"DelaySeconds", {0, 900, 0}},
      {"MaximumMessageSize", {1024, 1048576, 262144}},
      {"MessageRetentionPeriod", {60, 1209600, 345600}},
      {"ReceiveMessageWaitTimeSeconds", {0, 20, 0}},
      {"VisibilityTimeout", {0, 43200, 30}},
      {"KmsDataKeyReusePeriodSeconds", {60, 86400, 300}},
  };
  return rules;
}

const std::set<std::string> kTextAttributes = {"Policy", "RedrivePolicy", "RedriveAllowPolicy", "KmsMasterKeyId",
                                               "SqsManagedSseEnabled"};
const std::set<std::string> kFifoAttributes = {"FifoQueue", "ContentBasedDeduplication", "DeduplicationScope",
                                               "FifoThroughputLimit"};

ApiError InvalidAttributeValue(const std::string& name, const std::string& why = "") {
  return ApiError(400, "InvalidAttributeValue",
                  "Invalid value for the parameter " + name + "." + (why.empty() ? "" : " Reason: " + why));
}

void CheckInteger(const std::string& name, const std::string& value, const IntegerRule& rule) {
  char* end = nullptr;
  long long n = std::strtoll(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || n < rule.min || n > rule.max) {
    throw InvalidAttributeValue(name, "must be a whole number from " + std::to_string(rule.min) + " to " +
                                          std::to_string(rule.max) + ".");
  }
}

Json ParsedJson(const std::string& name, const std::string& value) {
  Json doc = Json::parse(value, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) throw InvalidAttributeValue(name, "the value is not a JSON object.");
  return doc;
}

void CheckRedrivePolicy(const std::string& value) {
  Json policy = ParsedJson("RedrivePolicy", value);
  if (!policy.contains("deadLetterTargetArn") || !policy["deadLetterTargetArn"].is_string() ||
      policy["deadLetterTargetArn"].get<std::string>().rfind("arn:aws:sqs:", 0) != 0) {
    throw InvalidAttributeValue("RedrivePolicy", "deadLetterTargetArn must be a queue's ARN.");
  }
  const Json& count = policy.contains("maxReceiveCount") ? policy["maxReceiveCount"] : Json();
  long long n = count.is_number_integer() ? count.get<long long>()
                : count.is_string()       ? std::strtoll(count.get<std::string>().c_str(), nullptr, 10)
                                          : 0;
  if (n < 1 || n > 1000) throw InvalidAttributeValue("RedrivePolicy", "maxReceiveCount must be from 1 to 1000.");
}

void CheckText(const std::string& name, const std::string& value) {
  if (name == "Policy" && !value.empty()) ParsedJson(name, value);
  if (name == "RedrivePolicy" && !value.empty()) CheckRedrivePolicy(value);
  if (name == "RedriveAllowPolicy" && !value.empty()) {
    Json policy = ParsedJson(name, value);
    std::string permission = policy.value("redrivePermission", "");
    if (permission != "allowAll" && permission != "denyAll" && permission != "byQueue") {
      throw InvalidAttributeValue(name, "redrivePermission must be allowAll, denyAll or byQueue.");
    }
  }
  if (name == "SqsManagedSseEnabled" && value != "true" && value != "false") throw InvalidAttributeValue(name);
}

void CheckFifo(const std::string& name, const std::string& value) {
  static const std::map<std::string, std::set<std::string>> kAllowed = {
      {"FifoQueue", {"true"}},
      {"ContentBasedDeduplication", {"true", "false"}},
      {"DeduplicationScope", {"messageGroup", "queue"}},
      {"FifoThroughputLimit", {"perQueue", "perMessageGroupId"}}};
  if (!kAllowed.at(name).count(value)) throw InvalidAttributeValue(name);
}

}  // namespace

std::string QueueUrl(const ServiceContext& ctx, const std::string& name) {
  return "https://sqs." + RegionOf(ctx) + ".amazonaws.com/" + ctx.settings.account_id + "/" + name;
}

Json RequireQueue(ServiceContext& ctx, const std::string& queue_url) {
  // ".../<account>/<name>": any host, as SQS takes the URL it handed out or the endpoint's.
  size_t slash = queue_url.rfind('/');
  std::string name = slash == std::string::npos ? queue_url : queue_url.substr(slash + 1);
  std::string head = slash == std::string::npos ? "" : queue_url.substr(0, slash);
  std::string account = head.substr(head.rfind('/') + 1);
  std::optional<Json> queue;
  if (account == ctx.settings.account_id) queue = FindQueue(ctx, name);
  if (!queue) throw ApiError(400, "QueueDoesNotExist", "The specified queue does not exist.");
  return *queue;
}

std::optional<Json> FindQueue(ServiceContext& ctx, const std::string& name) {
  return ctx.world.Get(kQueueKind, RegionOf(ctx) + "/" + name);
}

void SaveQueue(ServiceContext& ctx, const Json& queue) {
  ctx.world.Put(kQueueKind, queue.at("region").get<std::string>() + "/" + queue.at("name").get<std::string>(), queue);
}

void EraseQueue(ServiceContext& ctx, const Json& queue) {
  ctx.world.Erase(kQueueKind, queue.at("region").get<std::string>() + "/" + queue.at("name").get<std::string>());
}

std::vector<std::string> QueueNames(ServiceContext& ctx) {
  std::vector<std::string> names;
  for (const auto& [key, queue] : ctx.world.ListPrefix(kQueueKind, RegionOf(ctx) + "/")) {
    names.push_back(queue.at("name").get<std::string>());
  }
  return names;
}

void CheckQueueName(const std::string& name, bool fifo) {
  std::string base = name;
  bool suffixed = base.size() > 5 && base.compare(base.size() - 5, 5, ".fifo") == 0;
  if (suffixed) base.resize(base.size() - 5);
  bool ok = !name.empty() && name.size() <= 80 && !base.empty();
  for (char c : base) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_');
  if (!ok) {
    throw ApiError(400, "InvalidParameterValue",
                   "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length");
  }
  if (fifo != suffixed) {
    throw ApiError(400, "InvalidParameterValue",
                   "The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, must "
                   "end with .fifo suffix and be 1 to 80 in length.");
  }
}

Attributes CheckedAttributes(const Attributes& given, const Attributes& current, bool creating) {
  Attributes out = current;
  bool fifo = creating ? given.count("FifoQueue") > 0 : current.count("FifoQueue") > 0;
  for (const auto& [name, value] : given) {
    auto integer = IntegerRules().find(name);
    if (integer != IntegerRules().end()) {
      CheckInteger(name, value, integer->second);
    } else if (kTextAttributes.count(name)) {
      CheckText(name, value);
    } else if (kFifoAttributes.count(name) && fifo) {
      if (name == "FifoQueue" && !creating) throw InvalidAttributeValue(name, "FifoQueue is set only when a queue is made.");
      CheckFifo(name, value);
    } else {
      throw ApiError(400, "InvalidAttributeName", "Unknown Attribute " + name + ".");
    }
    out[name] = value;
  }
  if (out.count("KmsMasterKeyId") && !out["KmsMasterKeyId"].empty() && given.count("SqsManagedSseEnabled") &&
      given.at("SqsManagedSseEnabled") == "true") {
    throw InvalidAttributeValue("SqsManagedSseEnabled", "a queue encrypted with a KMS key cannot also use SSE-SQS.");
  }
  if (given.count("KmsMasterKeyId") && !given.at("KmsMasterKeyId").empty()) out["SqsManagedSseEnabled"] = "false";
  return out;
}

Attributes NewQueueAttributes(const ServiceContext& ctx, const std::string& name, const Attributes& given) {
  Attributes defaults;
  for (const auto& [attribute, rule] : IntegerRules()) {
    if (attribute != "KmsDataKeyReusePeriodSeconds") defaults[attribute] = std::to_string(rule.fallback);
  }
  defaults["SqsManagedSseEnabled"] = "true";
  if (given.count("FifoQueue")) {
    defaults["ContentBasedDeduplication"] = "false";
    defaults["DeduplicationScope"] = "queue";
    defaults["FifoThroughputLimit"] = "perQueue";
  }
  if (given.count("KmsMasterKeyId")) defaults["KmsDataKeyReusePeriodSeconds"] = "300";
  Attributes out = CheckedAttributes(given, defaults, /*creating=*/true);
  std::string now = std::to_string(static_cast<long long>(EpochSeconds(ctx.now)));
  out["QueueArn"] = "arn:aws:sqs:" + RegionOf(ctx) + ":" + ctx.settings.account_id + ":" + name;
  out["CreatedTimestamp"] = now;
  out["LastModifiedTimestamp"] = now;
  return out;
}

Attributes AllAttributes(const Json& queue) {
  Attributes out = queue.at("attributes").get<Attributes>();
  for (const char* count : {"ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible",
                            "ApproximateNumberOfMessagesDelayed"}) {
    out[count] = "0";
  }
  // An empty policy is no policy: SQS leaves it out.
  for (const char* text : {"Policy", "RedrivePolicy", "RedriveAllowPolicy", "KmsMasterKeyId"}) {
    auto it = out.find(text);
    if (it != out.end() && it->second.empty()) out.erase(it);
  }
  return out;
}

}  // namespace strata::sandbox::sqs
