// aws_sqs_queue: an SQS queue (the node termination handler's interruption queue), over
// CreateQueue / GetQueueAttributes / SetQueueAttributes / TagQueue / UntagQueue /
// DeleteQueue, with Terraform's attribute names and defaults. The id is the queue URL.
// Attributes travel as strings; after every write the type waits until they read back as
// written, because SQS applies them eventually.
//
// CreateQueue answers the existing queue when the name and attributes are the same, so the
// name is the natural key (a name from name_prefix is derived from the idempotency token);
// the create call also tags the queue with the token, and recovery claims a queue of that
// name only when it carries this create's token.

#include <cmath>

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/common/policy_json.h"
#include "providers/aws/common/wait.h"
#include "providers/aws/services/sqs/sqs_api.h"
#include "providers/aws/services/sqs/sqs_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

enum class QueueValue { Number, Bool, Text, Document };

//! One queue attribute: its name in Terraform and in SQS, how its text reads, its default.
struct QueueField {
  const char* attribute;
  const char* sqs;
  QueueValue kind;
  bool fifo_only;
  const char* fallback;  //!< Terraform's default; nullptr: none (computed from AWS)
};

const std::vector<QueueField>& QueueFields() {
  static const std::vector<QueueField> fields = {
      {"delay_seconds", "DelaySeconds", QueueValue::Number, false, "0"},
      {"max_message_size", "MaximumMessageSize", QueueValue::Number, false, "262144"},
      {"message_retention_seconds", "MessageRetentionPeriod", QueueValue::Number, false, "345600"},
      {"receive_wait_time_seconds", "ReceiveMessageWaitTimeSeconds", QueueValue::Number, false, "0"},
      {"visibility_timeout_seconds", "VisibilityTimeout", QueueValue::Number, false, "30"},
      {"policy", "Policy", QueueValue::Document, false, nullptr},
      {"redrive_policy", "RedrivePolicy", QueueValue::Document, false, nullptr},
      {"redrive_allow_policy", "RedriveAllowPolicy", QueueValue::Document, false, nullptr},
      {"kms_master_key_id", "KmsMasterKeyId", QueueValue::Text, false, nullptr},
      {"kms_data_key_reuse_period_seconds", "KmsDataKeyReusePeriodSeconds", QueueValue::Number, false, nullptr},
      {"sqs_managed_sse_enabled", "SqsManagedSseEnabled", QueueValue::Bool, false, nullptr},
      {"content_based_deduplication", "ContentBasedDeduplication", QueueValue::Bool, true, nullptr},
      {"deduplication_scope", "DeduplicationScope", QueueValue::Text, true, nullptr},
      {"fifo_throughput_limit", "FifoThroughputLimit", QueueValue::Text, true, nullptr},
  };
  return fields;
}

//! The attribute's value as SQS text; "" for null.
std::string QueueText(const Value& v, const QueueField& field) {
  Value a = Get(v, field.attribute);
  if (a.IsNull() || !a.IsKnown()) return "";
  if (field.kind == QueueValue::Number) return std::to_string(static_cast<long long>(std::llround(a.AsNumber())));
  if (field.kind == QueueValue::Bool) return a.AsBool() ? "true" : "false";
  return a.AsString();
}

//! SQS text as the attribute's value (what the user wrote, for an equivalent document).
Value QueueValueOf(const QueueAttributes& remote, const QueueField& field, const Value& prior) {
  auto it = remote.find(field.sqs);
  if (it == remote.end() || it->second.empty()) return Value();
  const std::string& text = it->second;
  switch (field.kind) {
    case QueueValue::Number:
      return Value::Number(std::strtod(text.c_str(), nullptr));
    case QueueValue::Bool:
      return Value::Bool(text == "true");
    case QueueValue::Document:
      return JsonDocumentForState(text, Get(prior, field.attribute));
    case QueueValue::Text:
      break;
  }
  return Value::String(text);
}

bool IsFifo(const Value& v) { return GetBool(v, "fifo_queue", false); }

//! The attributes `planned` sets, as SQS takes them.
QueueAttributes WrittenAttributes(const Value& planned) {
  QueueAttributes out;
  if (IsFifo(planned)) out["FifoQueue"] = "true";
  for (const QueueField& field : QueueFields()) {
    if (field.fifo_only && !IsFifo(planned)) continue;
    std::string text = QueueText(planned, field);
    if (!text.empty()) out[field.sqs] = text;
  }
  return out;
}

json TagsJson(const TagMap& tags) {
  json out = json::object();
  for (const auto& [key, value] : tags) out[key] = value;
  return out;
}

class AwsSqsQueue final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    std::map<std::string, AttributeSchema> attributes = {{"name", OptionalComputed("string", true)},
                                                         {"name_prefix", Optional("string", true)},
                                                         {"fifo_queue", OptionalComputed("bool", true)},
                                                         {"tags", Optional("map(string)")},
                                                         {"tags_all", Computed("map(string)")},
                                                         {"arn", Computed("string")},
                                                         {"url", Computed("string")}};
    for (const QueueField& field : QueueFields()) {
      const char* type = field.kind == QueueValue::Number ? "number" : field.kind == QueueValue::Bool ? "bool" : "string";
      attributes[field.attribute] = field.attribute == std::string("kms_master_key_id") ? Optional(type) : OptionalComputed(type);
    }
    return ManagedSchema("aws_sqs_queue", attributes);
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }
  std::vector<std::string> RecoveryKey() const override { return {"name", "name_prefix", "fifo_queue"}; }

  Diagnostics Validate(const Value& config) const override {
    if (!Get(config, "name").IsNull() && !Get(config, "name_prefix").IsNull()) {
      return Error("Conflicting queue names", "Set name or name_prefix on an aws_sqs_queue, not both.");
    }
    std::string name = GetString(config, "name");
    bool suffixed = name.size() > 5 && name.compare(name.size() - 5, 5, ".fifo") == 0;
    if (Get(config, "name").IsKnown() && Get(config, "fifo_queue").IsKnown() && !name.empty() &&
        suffixed != IsFifo(config)) {
      return Error("Invalid queue name", "A FIFO queue's name ends in \".fifo\", and only a FIFO queue's does: \"" +
                                             name + "\" with fifo_queue = " + (IsFifo(config) ? "true" : "false") + ".");
    }
    return {};
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string name = QueueName(ctx, planned);
    QueueAttributes written = WrittenAttributes(planned);
    json body = {{"QueueName", name}, {"Attributes", written}, {"tags", TagsJson(TagsOnCreate(ctx, planned))}};
    Result<json> created = CallSqs(*session_, ctx, "CreateQueue", body);
    if (!created.ok()) return CreateFailed("CreateQueue", created.error());
    std::string url = created->value("QueueUrl", "");
    return ReadAfterWrite(ctx, planned, url, WaitForQueueAttributes(*session_, ctx, url, written));
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    std::string url = GetString(prior, "id", GetString(prior, "url"));
    return ReadQueue(ctx, url, prior, nullptr);
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string url = GetString(prior, "id");
    QueueAttributes changed;
    for (const QueueField& field : QueueFields()) {
      if (field.fifo_only && !IsFifo(planned)) continue;
      Value want = Get(planned, field.attribute);
      if (!want.IsKnown() || want.Equals(Get(prior, field.attribute))) continue;
      // A document taken away is an empty value: SQS removes it.
      changed[field.sqs] = QueueText(planned, field);
    }
    Diagnostics diags;
    if (!changed.empty()) {
      Result<json> set = CallSqs(*session_, ctx, "SetQueueAttributes", {{"QueueUrl", url}, {"Attributes", changed}});
      diags = set.ok() ? WaitForQueueAttributes(*session_, ctx, url, changed) : AwsErrorDiag("SetQueueAttributes", set.error());
    }
    if (!diags.HasErrors()) diags = UpdateTags(ctx, url, GetStringMap(prior, "tags_all"), WantedTags(planned));
    return ReadAfterWrite(ctx, planned, url, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    std::string url = GetString(prior, "id");
    Result<json> deleted = CallSqs(*session_, ctx, "DeleteQueue", {{"QueueUrl", url}});
    if (!deleted.ok() && deleted.error().code != kSqsQueueDoesNotExist) return {AwsErrorDiag("DeleteQueue", deleted.error())};
    // Deletion takes effect eventually: wait until the queue is gone.
    return {WaitFor(*session_, ctx, "SQS queue " + url + " to be deleted", [&] {
      WaitPoll poll;
      Result<std::optional<QueueAttributes>> read = GetQueueAttributes(*session_, ctx, url);
      if (!read.ok()) poll.diags = AwsErrorDiag("GetQueueAttributes", read.error());
      poll.done = read.ok() && !read->has_value();
      poll.status = "still listed";
      return poll;
    })};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    if (id.rfind("https://", 0) != 0 && id.rfind("http://", 0) != 0) {
      return {Value(), Error("Invalid import id", "An aws_sqs_queue is imported by its URL "
                                                  "(https://sqs.<region>.amazonaws.com/<account>/<name>), not \"" + id + "\".")};
    }
    return ImportById(ctx, id);
  }

 protected:
  //! The queue of the planned name, claimed only when its create-token tag is this create's.
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    std::string name = QueueName(ctx, planned);
    Result<json> found = CallSqs(*session_, ctx, "GetQueueUrl", {{"QueueName", name}});
    if (!found.ok()) {
      if (found.error().code == kSqsQueueDoesNotExist) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("GetQueueUrl", found.error())};
    }
    std::string token;
    ReadResult read = ReadQueue(ctx, found->value("QueueUrl", ""), planned, &token);
    return ClaimIfOurs(ctx, std::move(read), token, "SQS queue \"" + name + "\"", found->value("QueueUrl", ""));
  }

  Value ApplyDefaults(const Value& v) const override {
    Value out = AwsResourceType::ApplyDefaults(v);
    if (Get(out, "fifo_queue").IsNull()) out = With(out, "fifo_queue", Value::Bool(false));
    for (const QueueField& field : QueueFields()) {
      if (field.fallback && Get(out, field.attribute).IsNull()) {
        out = With(out, field.attribute, Value::Number(std::strtod(field.fallback, nullptr)));
      }
    }
    return out;
  }

 private:
  static std::string QueueName(const OperationContext& ctx, const Value& planned) {
    std::string name = GetString(planned, "name");
    if (!name.empty()) return name;
    name = UniqueName(GetString(planned, "name_prefix", "terraform-"), ctx);
    return IsFifo(planned) ? name + ".fifo" : name;
  }

  ReadResult ReadQueue(const OperationContext& ctx, const std::string& url, const Value& prior, std::string* token) {
    Result<std::optional<QueueAttributes>> got = GetQueueAttributes(*session_, ctx, url);
    if (!got.ok()) return {Value(), false, AwsErrorDiag("GetQueueAttributes", got.error())};
    if (!got->has_value()) return {Value(), true, {}};
    const QueueAttributes& remote = **got;
    Result<std::map<std::string, std::string>> tags = ListQueueTags(*session_, ctx, url, token);
    if (!tags.ok()) return {Value(), false, AwsErrorDiag("ListQueueTags", tags.error())};
    std::string arn = remote.count("QueueArn") ? remote.at("QueueArn") : "";
    ValueMap state = {{"id", Value::String(url)},
                      {"url", Value::String(url)},
                      {"arn", Value::String(arn)},
                      {"name", Value::String(arn.substr(arn.rfind(':') + 1))},
                      {"name_prefix", Get(prior, "name_prefix")},
                      {"fifo_queue", Value::Bool(remote.count("FifoQueue") && remote.at("FifoQueue") == "true")},
                      {"tags", TagsForState(*tags, session_->default_tags, Get(prior, "tags"))},
                      {"tags_all", TagsValue(*tags)}};
    for (const QueueField& field : QueueFields()) state[field.attribute] = QueueValueOf(remote, field, prior);
    return {Value::Object(std::move(state)), false, {}};
  }

  Diagnostics UpdateTags(const OperationContext& ctx, const std::string& url, const TagMap& from, const TagMap& to) {
    TagMap added = ChangedTags(from, to);
    std::vector<std::string> removed = RemovedTagKeys(from, to);
    if (!removed.empty()) {
      Result<json> done = CallSqs(*session_, ctx, "UntagQueue", {{"QueueUrl", url}, {"TagKeys", removed}});
      if (!done.ok()) return AwsErrorDiag("UntagQueue", done.error());
    }
    if (!added.empty()) {
      Result<json> done = CallSqs(*session_, ctx, "TagQueue", {{"QueueUrl", url}, {"Tags", TagsJson(added)}});
      if (!done.ok()) return AwsErrorDiag("TagQueue", done.error());
    }
    return {};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsSqsQueue(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsSqsQueue>(std::move(session));
}

}  // namespace strata::aws
