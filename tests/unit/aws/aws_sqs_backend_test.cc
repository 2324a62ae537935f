// aws_sqs_queue and aws_sqs_queue_policy against the sandbox and moto, reached only
// through the provider's `endpoints` setting (SQS over awsJson 1.0, as current SDKs speak
// it). Where moto departs from AWS, the test says so and skips that part loudly; the
// provider is never told.

#include "backend_provider_test.h"

namespace strata::aws {
namespace {

using namespace backendtest;
using attrs::With;

constexpr const char* kRegion = "us-west-2";

std::string QueuePolicy(const std::string& account, const std::string& queue, bool reordered = false) {
  std::string arn = "arn:aws:sqs:us-west-2:" + account + ":" + queue;
  if (reordered) {
    return R"({"Statement":[{"Resource":")" + arn +
           R"(","Action":["sqs:SendMessage"],"Principal":{"Service":["events.amazonaws.com"]},"Effect":"Allow","Sid":"events"}],"Version":"2012-10-17"})";
  }
  return R"({"Version":"2012-10-17","Statement":[{"Sid":"events","Effect":"Allow","Principal":{"Service":"events.amazonaws.com"},"Action":"sqs:SendMessage","Resource":")" +
         arn + R"("}]})";
}

class AwsSqsTest : public BackendProviderTest {
 protected:
  AwsSqsTest() : BackendProviderTest("SQS", {"sqs"}, kRegion) {}


  std::string suffix_ = UniqueSuffix();
};

TEST_P(AwsSqsTest, QueueCreateReadUpdateImportDelete) {
  std::string name = "interruptions-" + suffix_;
  Value config = Obj({{"name", S(name)},
                      {"visibility_timeout_seconds", N(60)},
                      {"message_retention_seconds", N(300)},
                      {"policy", S(QueuePolicy(Account(), name))},
                      {"tags", Tags({{"team", "ml"}})}});
  ctx_.idempotency_token = "token-queue-" + suffix_;
  ApplyResult created = Create("aws_sqs_queue", config);
  ASSERT_FALSE(created.diags.HasErrors()) << Text(created.diags);
  const Value& state = created.state;
  EXPECT_NE(Str(state, "url").find("/" + Account() + "/" + name), std::string::npos) << Str(state, "url");
  EXPECT_EQ(Str(state, "id"), Str(state, "url"));
  EXPECT_EQ(Str(state, "arn"), "arn:aws:sqs:us-west-2:" + Account() + ":" + name);
  EXPECT_EQ(Attr(state, "visibility_timeout_seconds"), N(60));
  EXPECT_EQ(Attr(state, "message_retention_seconds"), N(300));
  // Terraform's defaults, read back from SQS.
  EXPECT_EQ(Attr(state, "delay_seconds"), N(0));
  EXPECT_EQ(Attr(state, "max_message_size"), N(262144));
  EXPECT_EQ(Attr(state, "receive_wait_time_seconds"), N(0));
  EXPECT_EQ(Attr(state, "fifo_queue"), Value::Bool(false));
  EXPECT_EQ(Str(state, "policy"), QueuePolicy(Account(), name));
  EXPECT_EQ(Attr(state, "tags"), Tags({{"team", "ml"}}));
  EXPECT_EQ(Attr(state, "tags_all"), Tags({{"team", "ml"}, {"Owner", "strata-tests"}}));
  ExpectReadsBack("aws_sqs_queue", state);

  // The create sent again (a lost answer) is the same queue.
  ApplyResult again = Create("aws_sqs_queue", config);
  ASSERT_FALSE(again.diags.HasErrors()) << Text(again.diags);
  EXPECT_EQ(Str(again.state, "url"), Str(state, "url"));
  // Found again by its name and its token tag; another create's token does not claim it.
  PlanResult plan = PlanCreate("aws_sqs_queue", config);
  ReadResult found = provider_.FindInterruptedCreate(ctx_, "aws_sqs_queue", plan.planned);
  ASSERT_FALSE(found.diags.HasErrors()) << Text(found.diags);
  EXPECT_FALSE(found.gone);
  EXPECT_EQ(Str(found.state, "url"), Str(state, "url"));
  ctx_.idempotency_token = "token-someone-else";
  ReadResult other = provider_.FindInterruptedCreate(ctx_, "aws_sqs_queue", plan.planned);
  // Someone else's queue under the name: the interrupted create made nothing, and says so.
  EXPECT_TRUE(other.gone);
  EXPECT_FALSE(other.diags.HasErrors());
  EXPECT_NE(Text(other.diags).find("SQS queue \"" + name + "\""), std::string::npos) << Text(other.diags);
  ctx_.idempotency_token.clear();

  // The same policy written in another order is no change; attributes and tags change in place.
  PlanResult same = PlanUpdate("aws_sqs_queue", state, With(config, "policy", S(QueuePolicy(Account(), name, true))));
  ASSERT_FALSE(same.diags.HasErrors()) << Text(same.diags);
  Value changed = With(config, "visibility_timeout_seconds", N(120));
  changed = With(changed, "delay_seconds", N(5));
  changed = With(changed, "tags", Tags({{"team", "platform"}}));
  Value updated = UpdateInPlace("aws_sqs_queue", state, changed);
  EXPECT_EQ(Attr(updated, "visibility_timeout_seconds"), N(120));
  EXPECT_EQ(Attr(updated, "delay_seconds"), N(5));
  EXPECT_EQ(Attr(updated, "tags"), Tags({{"team", "platform"}}));
  ExpectReadsBack("aws_sqs_queue", updated);

  ApplyResult imported = provider_.ImportResource(ctx_, "aws_sqs_queue", Str(state, "url"));
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(Str(imported.state, "name"), name);
  EXPECT_EQ(Attr(imported.state, "visibility_timeout_seconds"), N(120));
  EXPECT_TRUE(provider_.ImportResource(ctx_, "aws_sqs_queue", name).diags.HasErrors());

  MustDelete("aws_sqs_queue", updated);
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_sqs_queue", updated).gone);
  MustDelete("aws_sqs_queue", updated);  // already gone: nothing to do
}

TEST_P(AwsSqsTest, FifoQueueAndNamePrefix) {
  ctx_.idempotency_token = "token-fifo-" + suffix_;
  Value fifo = MustCreate("aws_sqs_queue", Obj({{"name", S("jobs-" + suffix_ + ".fifo")},
                                                {"fifo_queue", Value::Bool(true)},
                                                {"content_based_deduplication", Value::Bool(true)}}));
  EXPECT_EQ(Attr(fifo, "fifo_queue"), Value::Bool(true));
  EXPECT_EQ(Attr(fifo, "content_based_deduplication"), Value::Bool(true));
  ExpectReadsBack("aws_sqs_queue", fifo);
  MustDelete("aws_sqs_queue", fifo);

  // A name from a prefix is derived from the token, so a re-sent create asks for the same name.
  Value prefixed = Obj({{"name_prefix", S("spot-" + suffix_ + "-")}});
  Value first = MustCreate("aws_sqs_queue", prefixed);
  EXPECT_EQ(Str(first, "name").rfind("spot-" + suffix_ + "-", 0), 0u) << Str(first, "name");
  Value second = MustCreate("aws_sqs_queue", prefixed);
  EXPECT_EQ(Str(second, "url"), Str(first, "url"));
  MustDelete("aws_sqs_queue", first);
}

TEST_P(AwsSqsTest, RefusalsAreClearErrors) {
  ApplyResult bad = Create("aws_sqs_queue", Obj({{"name", S("bad-" + suffix_)}, {"visibility_timeout_seconds", N(50000)}}));
  if (IsMoto() && !bad.diags.HasErrors()) {
    MustDelete("aws_sqs_queue", bad.state);
    GTEST_SKIP() << "moto accepts a VisibilityTimeout over 43200; AWS refuses it with InvalidAttributeValue";
  }
  ASSERT_TRUE(bad.diags.HasErrors());
  EXPECT_NE(Text(bad.diags).find("VisibilityTimeout"), std::string::npos) << Text(bad.diags);
  Diagnostics checked = provider_.ValidateResourceConfig(ctx_, ResourceMode::Managed, "aws_sqs_queue",
                                                        Obj({{"name", S("plain.fifo")}, {"fifo_queue", Value::Bool(false)}}));
  ASSERT_TRUE(checked.HasErrors());
  EXPECT_NE(Text(checked).find(".fifo"), std::string::npos) << Text(checked);
  // The same name with another attribute value is SQS's QueueNameExists, not a second queue.
  Value queue = MustCreate("aws_sqs_queue", Obj({{"name", S("taken-" + suffix_)}}));
  ApplyResult clash = Create("aws_sqs_queue", Obj({{"name", S("taken-" + suffix_)}, {"delay_seconds", N(7)}}));
  if (IsMoto() && !clash.diags.HasErrors()) {
    MustDelete("aws_sqs_queue", queue);
    GTEST_SKIP() << "moto answers CreateQueue of an existing name with other attributes with the queue; AWS refuses "
                    "with QueueNameExists";
  }
  ASSERT_TRUE(clash.diags.HasErrors());
  EXPECT_NE(Text(clash.diags).find("QueueNameExists"), std::string::npos) << Text(clash.diags);
  MustDelete("aws_sqs_queue", queue);
}

TEST_P(AwsSqsTest, QueuePolicyCreateReadUpdateDelete) {
  std::string name = "policy-" + suffix_;
  Value queue = MustCreate("aws_sqs_queue", Obj({{"name", S(name)}}));
  std::string url = Str(queue, "url");
  Value config = Obj({{"queue_url", S(url)}, {"policy", S(QueuePolicy(Account(), name))}});
  ApplyResult created = Create("aws_sqs_queue_policy", config);
  ASSERT_FALSE(created.diags.HasErrors()) << Text(created.diags);
  EXPECT_EQ(Str(created.state, "id"), url);
  EXPECT_EQ(Str(created.state, "policy"), QueuePolicy(Account(), name));
  ExpectReadsBack("aws_sqs_queue_policy", created.state);
  // Written in another order, it means the same: kept as written, no change.
  ApplyResult reordered = provider_.UpdateResource(ctx_, "aws_sqs_queue_policy", created.state,
                                                   With(config, "policy", S(QueuePolicy(Account(), name, true))));
  ASSERT_FALSE(reordered.diags.HasErrors()) << Text(reordered.diags);
  EXPECT_EQ(Str(reordered.state, "policy"), QueuePolicy(Account(), name, true));
  ReadResult found = provider_.FindInterruptedCreate(ctx_, "aws_sqs_queue_policy", PlanCreate("aws_sqs_queue_policy", config).planned);
  EXPECT_FALSE(found.gone) << Text(found.diags);

  MustDelete("aws_sqs_queue_policy", reordered.state);
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_sqs_queue_policy", reordered.state).gone);
  MustDelete("aws_sqs_queue", queue);
  MustDelete("aws_sqs_queue_policy", reordered.state);  // the queue is gone: nothing to do
}

STRATA_AWS_BACKENDS(AwsSqsTest);

}  // namespace
}  // namespace strata::aws
