#include "engine/plan/file/plan_file.h"

#include <sys/stat.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <tuple>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/unit/state/state_test_util.h"

namespace strata::state {
namespace {

using namespace testing;
using ::testing::AssertionFailure;
using ::testing::AssertionResult;
using ::testing::AssertionSuccess;
using ::testing::HasSubstr;
using ::testing::Not;

const char kSecret[] = "hunter2-db-password";
const char kVarSecret[] = "var-secret-token-42";
const char kOutputSecret[] = "kubeconfig-output-secret";
const char kDriftSecret[] = "drifted-secret-value";
const char kNestedSecret[] = "nested-list-secret";

// Value::operator== ignores kinds within a family (list/tuple/set, map/object) and marks, and
// unknown equals nothing: this compares exactly, unknowns included.
AssertionResult Same(const Value& a, const Value& b, const std::string& at = "value") {
  if (a.kind() != b.kind()) return AssertionFailure() << at << ": " << a.TypeName() << " vs " << b.TypeName();
  if (a.IsSensitive() != b.IsSensitive()) return AssertionFailure() << at << ": sensitive mark differs";
  switch (a.kind()) {
    case ValueKind::Bool:
      if (a.AsBool() != b.AsBool()) return AssertionFailure() << at << ": bool differs";
      break;
    case ValueKind::Number: {
      double x = a.AsNumber(), y = b.AsNumber();
      if (!(x == y || (std::isnan(x) && std::isnan(y)))) return AssertionFailure() << at << ": " << x << " vs " << y;
      break;
    }
    case ValueKind::String:
      if (a.AsString() != b.AsString()) return AssertionFailure() << at << ": " << a.AsString() << " vs " << b.AsString();
      break;
    case ValueKind::List:
    case ValueKind::Tuple:
    case ValueKind::Set: {
      if (a.AsList().size() != b.AsList().size()) return AssertionFailure() << at << ": length differs";
      for (size_t i = 0; i < a.AsList().size(); ++i) {
        if (auto r = Same(a.AsList()[i], b.AsList()[i], at + "[" + std::to_string(i) + "]"); !r) return r;
      }
      break;
    }
    case ValueKind::Map:
    case ValueKind::Object: {
      auto i = a.AsMap().begin(), j = b.AsMap().begin();
      for (; i != a.AsMap().end() && j != b.AsMap().end(); ++i, ++j) {
        if (i->first != j->first) return AssertionFailure() << at << ": key " << i->first << " vs " << j->first;
        if (auto r = Same(i->second, j->second, at + "." + i->first); !r) return r;
      }
      if (a.AsMap().size() != b.AsMap().size()) return AssertionFailure() << at << ": size differs";
      break;
    }
    case ValueKind::Null:
    case ValueKind::Unknown: break;
  }
  return AssertionSuccess();
}

// What resource and output changes have in common.
template <class C>
void ExpectSameActionAndValues(const C& a, const C& b) {
  EXPECT_EQ(a.action, b.action);
  EXPECT_TRUE(Same(a.before, b.before, "before"));
  EXPECT_TRUE(Same(a.after, b.after, "after"));
}

void ExpectSameChange(const ResourceInstanceChange& a, const ResourceInstanceChange& b) {
  SCOPED_TRACE(a.addr.ToString());
  EXPECT_EQ(a.addr.ToString(), b.addr.ToString());
  EXPECT_EQ(a.addr, b.addr);
  ExpectSameActionAndValues(a, b);
  EXPECT_EQ(a.requires_replace, b.requires_replace);
  auto scalars = [](const ResourceInstanceChange& c) {
    return std::tie(c.type, c.provider, c.mode, c.reason, c.schema_version, c.idempotency_token, c.dependencies,
                    c.create_before_destroy, c.timeouts);
  };
  EXPECT_EQ(scalars(a), scalars(b));
}

void ExpectSamePlan(const Plan& a, const Plan& b) {
  EXPECT_EQ(a.stage, b.stage);
  ASSERT_EQ(a.changes.size(), b.changes.size());
  for (size_t i = 0; i < a.changes.size(); ++i) ExpectSameChange(a.changes[i], b.changes[i]);
  ASSERT_EQ(a.output_changes.size(), b.output_changes.size());
  for (size_t i = 0; i < a.output_changes.size(); ++i) {
    const OutputChange &x = a.output_changes[i], &y = b.output_changes[i];
    SCOPED_TRACE("output " + x.name);
    EXPECT_EQ(x.name, y.name);
    ExpectSameActionAndValues(x, y);
    EXPECT_EQ(x.sensitive, y.sensitive);
  }
  auto scalars = [](const Plan& p) {
    return std::tie(p.prior_lineage, p.prior_serial, p.prior_state_digest, p.config_digest, p.errored, p.mode, p.targets, p.replace);
  };
  EXPECT_EQ(scalars(a), scalars(b));
  ASSERT_EQ(a.variables.size(), b.variables.size());
  for (auto i = a.variables.begin(), j = b.variables.begin(); i != a.variables.end(); ++i, ++j) {
    EXPECT_EQ(i->first, j->first);
    EXPECT_TRUE(Same(i->second, j->second, "variable " + i->first));
  }
  ASSERT_EQ(a.drift.size(), b.drift.size());
  for (size_t i = 0; i < a.drift.size(); ++i) ExpectSameChange(a.drift[i], b.drift[i]);
  EXPECT_EQ(a.upstream_changes, b.upstream_changes);
}

ResourceInstanceAddr Addr(const std::string& text) { return *ParseResourceInstanceAddr(text).addr; }

ResourceInstanceChange Change(const std::string& address, const std::string& provider, Action action,
                              ActionReason reason, Value before, Value after) {
  ResourceInstanceChange c;
  c.addr = Addr(address);
  c.type = c.addr.resource.type;
  c.provider = provider;
  c.mode = c.addr.resource.mode == ResourceMode::Data ? "data" : "managed";
  c.action = action;
  c.reason = reason;
  c.before = std::move(before);
  c.after = std::move(after);
  return c;
}

// A plan with every field set, and values of every kind, with unknowns and secrets nested.
Plan FullPlan() {
  Value db_after = Value::Object({
      {"engine", Value::String("postgres")},
      {"port", Value::Number(5432)},
      {"ratio", Value::Number(0.1)},
      {"big", Value::Number(1e300)},
      {"negative", Value::Number(-17.25)},
      {"huge_int", Value::Number(9007199254740993.0)},
      {"infinite", Value::Number(std::numeric_limits<double>::infinity())},
      {"enabled", Value::Bool(true)},
      {"deleted_at", Value::Null()},
      {"arn", Value::Unknown()},
      {"password", Value::String(kSecret).MarkSensitive()},
      {"pending_secret", Value::Unknown().MarkSensitive()},
      {"tags", Value::Map({{"env", Value::String("prod")}, {"owner", Value::Unknown()}, {"a", Value::String("z")}})},
      {"zones", Value::List({Value::String("a"), Value::Unknown(), Value::String("c")})},
      {"ports", Value::Set({Value::Number(443), Value::Number(80), Value::Unknown()})},
      {"pair", Value::Tuple({Value::Number(1), Value::String("x")})},
      {"empty_list", Value::List({})},
      {"empty_map", Value::Map({})},
      {"rules", Value::List({Value::Object({
                                 {"cidr", Value::String("10.0.0.0/8")},
                                 {"keys", Value::List({Value::String(kNestedSecret).MarkSensitive()})},
                                 {"id", Value::Unknown()},
                             }),
                             Value::Unknown()})},
      // A sensitive subtree that itself holds unknowns, kinds and an inner mark.
      {"credentials", Value::Object({
                                        {"user", Value::String("admin")},
                                        {"token", Value::Unknown()},
                                        {"scopes", Value::Set({Value::String("read"), Value::String("write")})},
                                        {"inner", Value::String("also-secret").MarkSensitive()},
                                    })
                          .MarkSensitive()},
  });
  Value db_before = Value::Object({
      {"engine", Value::String("postgres")},
      {"password", Value::String("old-password").MarkSensitive()},
      {"tags", Value::Map({{"env", Value::String("dev")}})},
  });

  ResourceInstanceChange db =
      Change("module.eks.module.db[\"primary\"].aws_db_instance.main[0]", "hashicorp/aws", Action::CreateThenDelete,
             ActionReason::ReplaceBecauseCannotUpdate, db_before, db_after);
  db.requires_replace = {AttrPath::Of("engine"),
                         AttrPath{PathStep::Attr("tags"), PathStep::Key("odd \"key\".x")},
                         AttrPath{PathStep::Attr("rules"), PathStep::Index(3), PathStep::Attr("cidr")}};
  db.schema_version = 2;
  db.idempotency_token = "tok-123";
  db.dependencies = {"aws_subnet.a", "module.net.aws_vpc.main"};
  db.create_before_destroy = true;
  db.timeouts = {{"create", "1h30m"}, {"delete", "2.5h"}};

  ResourceInstanceChange created = Change("random_pet.name[\"spot\"]", "strata/builtin", Action::Create,
                                          ActionReason::CreateAfterInterruption, Value::Null(),
                                          Value::Unknown());  // wholly unknown
  ResourceInstanceChange read =
      Change("data.aws_region.current", "hashicorp/aws", Action::Read, ActionReason::ReadBecauseConfigUnknown,
             Value::Object({{"name", Value::String("eu-west-1")}}), Value::Object({{"name", Value::Unknown()}}));
  ResourceInstanceChange gone =
      Change("aws_s3_bucket.logs", "hashicorp/aws", Action::Delete, ActionReason::DeleteBecauseNoResourceConfig,
             Value::Object({{"bucket", Value::String("logs")}}), Value::Null());
  ResourceInstanceChange drifted = Change("aws_iam_user.ci", "hashicorp/aws", Action::Update, ActionReason::None,
                                          Value::Object({{"key", Value::String("k1").MarkSensitive()}}),
                                          Value::Object({{"key", Value::String(kDriftSecret).MarkSensitive()}}));

  Plan plan;
  plan.stage = "eks";
  plan.changes = {db, created, read, gone};
  plan.output_changes = {
      {"endpoint", Action::Update, Value::String("old.example"), Value::Unknown(), false},
      {"kubeconfig", Action::Create, Value::Null(), Value::String(kOutputSecret).MarkSensitive(), true},
      {"removed", Action::Delete, Value::List({Value::Number(1)}), Value::Null(), false},
  };
  plan.prior_lineage = "5b0c5c1e-2f7a-4bd0-9a53-7d7c2d3b8e11";
  plan.prior_serial = 41;
  plan.config_digest = "sha256:abc123";
  plan.prior_state_digest = "d1g3st";
  plan.variables = {
      {"region", Value::String("eu-west-1")},
      {"token", Value::String(kVarSecret).MarkSensitive()},
      {"sizes", Value::Map({{"small", Value::Number(1)}, {"large", Value::Number(8)}})},
      {"unset", Value::Null()},
  };
  plan.errored = true;
  plan.mode = PlanMode::RefreshOnly;
  plan.targets = {"module.eks", "aws_db_instance.main[0]"};
  plan.replace = {"aws_db_instance.main[0]"};
  plan.drift = {drifted};
  plan.upstream_changes = {{"net", "vpc_id", false, 12, 14, ""},
                           {"net", "token", true, 12, 0, "stage \"net\" has no output \"token\""}};
  return plan;
}

class PlanFileTest : public ::testing::Test {
 protected:
  crypto::KeyRing Ring(const crypto::StateKey& k) {
    crypto::KeyRing ring;
    ring.primary = k;
    return ring;
  }
  void Write(const Plan& plan, const crypto::KeyRing& ring) {
    StateStatus st = WritePlanFile(path, plan, ring, env);
    ASSERT_TRUE(st.ok()) << st.message();
  }
  std::string Bytes() { return ReadFileBytes(path); }
  void Overwrite(const std::string& text) { std::ofstream(path, std::ios::binary | std::ios::trunc) << text; }
  nlohmann::json Document() { return nlohmann::json::parse(Bytes()); }

  TempDir dir;
  FakeEnvironment env;
  std::string path = dir.File("eks.plan");
  crypto::StateKey key = Key("0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0");
  crypto::StateKey other = Key("a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90");
};

TEST_F(PlanFileTest, RoundTripsEveryFieldWithAKey) {
  Plan plan = FullPlan();
  Write(plan, Ring(key));
  auto back = ReadPlanFile(path, Ring(key));
  ASSERT_TRUE(back.ok()) << back.status().message();
  ExpectSamePlan(plan, *back);

  // Spot checks that do not go through the comparator.
  const Value& after = back->changes[0].after;
  EXPECT_EQ(after.AsMap().at("zones").kind(), ValueKind::List);
  EXPECT_TRUE(after.AsMap().at("zones").AsList()[1].IsUnknown());
  EXPECT_EQ(after.AsMap().at("password").AsString(), kSecret);
  EXPECT_TRUE(after.AsMap().at("pending_secret").IsUnknown());
  EXPECT_TRUE(after.AsMap().at("pending_secret").IsSensitive());
  EXPECT_EQ(after.AsMap().at("credentials").AsMap().at("scopes").kind(), ValueKind::Set);
  EXPECT_TRUE(back->changes[1].after.IsUnknown());
}

TEST_F(PlanFileTest, RoundTripsWithoutAKeyAndAnOldKeyStillOpens) {
  Plan plan = FullPlan();
  Write(plan, crypto::KeyRing{});
  auto back = ReadPlanFile(path, crypto::KeyRing{});
  ASSERT_TRUE(back.ok()) << back.status().message();
  ExpectSamePlan(plan, *back);

  Write(plan, Ring(key));
  crypto::KeyRing rotated = Ring(other);
  rotated.old_keys.push_back(key);
  auto reread = ReadPlanFile(path, rotated);
  ASSERT_TRUE(reread.ok()) << reread.status().message();
  ExpectSamePlan(plan, *reread);
}

TEST_F(PlanFileTest, EveryActionReasonAndModeRoundTrips) {
  Plan plan;
  for (int a = 0; a <= static_cast<int>(Action::Delete); ++a) {
    for (int r = 0; r <= static_cast<int>(ActionReason::InterruptedCreate); ++r) {
      plan.changes.push_back(Change("null_resource.x[" + std::to_string(plan.changes.size()) + "]", "strata/builtin",
                                    static_cast<Action>(a), static_cast<ActionReason>(r), Value::Null(), Value::Null()));
    }
    plan.output_changes.push_back({"o" + std::to_string(a), static_cast<Action>(a), Value::Null(), Value::Null(), false});
  }
  for (PlanMode mode : {PlanMode::Normal, PlanMode::Destroy, PlanMode::RefreshOnly}) {
    plan.mode = mode;
    Write(plan, crypto::KeyRing{});
    auto back = ReadPlanFile(path, crypto::KeyRing{});
    ASSERT_TRUE(back.ok()) << back.status().message();
    ExpectSamePlan(plan, *back);
  }
}

TEST_F(PlanFileTest, StartsWithFormatAndVersion) {
  Write(FullPlan(), Ring(key));
  EXPECT_EQ(Bytes().rfind("{\"format\":\"strata-plan\",\"version\":1,", 0), 0u) << Bytes().substr(0, 80);
  nlohmann::json doc = Document();
  const nlohmann::json& zones = doc["changes"][0]["after"];
  EXPECT_TRUE(zones["value"]["zones"][1].is_null());
  // Unknowns inside sensitive nodes (pending_secret, credentials.token) are in their sealed records.
  EXPECT_EQ(zones["unknown"], nlohmann::json::parse(
                                  R"([["arn"],["ports",2],["rules",0,"id"],["rules",1],["tags","owner"],["zones",1]])"));
  EXPECT_EQ(zones["kinds"]["set"], nlohmann::json::parse(R"([["ports"]])"));
  EXPECT_EQ(zones["nonfinite"], nlohmann::json::parse(R"([[["infinite"],"+Inf"]])"));
}

TEST_F(PlanFileTest, SecretsAreSealedWithAKey) {
  Write(FullPlan(), Ring(key));
  std::string bytes = Bytes();
  for (const char* secret : {kSecret, kVarSecret, kOutputSecret, kDriftSecret, kNestedSecret, "also-secret",
                             "old-password"}) {
    EXPECT_THAT(bytes, Not(HasSubstr(secret))) << secret;
  }
  EXPECT_THAT(bytes, Not(HasSubstr("plain:")));
  EXPECT_THAT(bytes, HasSubstr("aes256gcm:" + key.id + ":"));
  EXPECT_THAT(bytes, HasSubstr("postgres"));  // what is not sensitive stays readable
}

TEST_F(PlanFileTest, SecretsAreInPlainFormWithoutAKey) {
  Write(FullPlan(), crypto::KeyRing{});
  std::string bytes = Bytes();
  for (const char* secret : {kSecret, kVarSecret, kOutputSecret, kDriftSecret, kNestedSecret}) {
    EXPECT_THAT(bytes, HasSubstr(secret)) << secret;
  }
  EXPECT_THAT(bytes, HasSubstr("plain:"));
  EXPECT_THAT(bytes, Not(HasSubstr("aes256gcm:")));
}

TEST_F(PlanFileTest, ReadingWithoutTheKeyFailsNamingTheFile) {
  Write(FullPlan(), Ring(key));
  auto back = ReadPlanFile(path, crypto::KeyRing{});
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.status().code(), StateCode::KeyMissing);
  EXPECT_THAT(back.status().message(), HasSubstr(path));
  EXPECT_THAT(back.status().message(), HasSubstr("STRATA_STATE_KEY"));
}

TEST_F(PlanFileTest, ReadingWithTheWrongKeyFailsNamingTheFile) {
  Write(FullPlan(), Ring(key));
  auto back = ReadPlanFile(path, Ring(other));
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.status().code(), StateCode::KeyWrong);
  EXPECT_THAT(back.status().message(), HasSubstr(path));
  EXPECT_THAT(back.status().message(), HasSubstr(key.id));
  EXPECT_THAT(back.status().message(), HasSubstr(other.id));
}

TEST_F(PlanFileTest, TamperedSecretIsRefused) {
  Plan plan;
  plan.variables["token"] = Value::String(kVarSecret).MarkSensitive();
  Write(plan, Ring(key));
  nlohmann::json doc = Document();
  std::string& sealed = doc["variables"]["token"]["secrets"][0].get_ref<std::string&>();
  sealed[sealed.size() - 3] = sealed[sealed.size() - 3] == 'A' ? 'B' : 'A';
  Overwrite(doc.dump());
  auto back = ReadPlanFile(path, Ring(key));
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.status().code(), StateCode::KeyWrong);
  EXPECT_THAT(back.status().message(), HasSubstr(path));
  EXPECT_THAT(back.status().message(), HasSubstr("variable token"));
}

TEST_F(PlanFileTest, MissingFileSaysSo) {
  auto back = ReadPlanFile(dir.File("nope.plan"), crypto::KeyRing{});
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.status().code(), StateCode::NotFound);
  EXPECT_THAT(back.status().message(), HasSubstr(dir.File("nope.plan") + " does not exist"));
  EXPECT_THAT(back.status().message(), HasSubstr("strata plan -out"));
}

TEST_F(PlanFileTest, OtherFilesAreNotPlans) {
  struct Case {
    std::string text, why;
  };
  const Case cases[] = {
      {std::string("PK\x03\x04\x14\x00\x08\x00tfplan", 14), "Terraform"},
      {"hello, this is a README\n", "not JSON"},
      {"", "empty"},
      {R"({"format_version":"1.2","terraform_version":"1.9.0","planned_values":{}})", "\"format\""},
      {"[1,2,3]", "\"format\""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.why);
    Overwrite(c.text);
    auto back = ReadPlanFile(path, crypto::KeyRing{});
    ASSERT_FALSE(back.ok());
    EXPECT_EQ(back.status().code(), StateCode::InvalidArgument);
    EXPECT_THAT(back.status().message(), HasSubstr(path + " is not a Strata plan file"));
    EXPECT_THAT(back.status().message(), HasSubstr(c.why));
    EXPECT_THAT(back.status().message(), HasSubstr("strata plan -out"));
  }
}

TEST_F(PlanFileTest, NewerVersionIsRefused) {
  Write(FullPlan(), crypto::KeyRing{});
  nlohmann::json doc = Document();
  doc["version"] = 2;
  Overwrite(doc.dump());
  auto back = ReadPlanFile(path, crypto::KeyRing{});
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.status().code(), StateCode::SchemaTooNew);
  EXPECT_THAT(back.status().message(), HasSubstr(path));
  EXPECT_THAT(back.status().message(), HasSubstr("made by a newer Strata"));
  EXPECT_THAT(back.status().message(), HasSubstr("version 2"));
}

TEST_F(PlanFileTest, DamagedFilesNameWhatIsWrong) {
  Write(FullPlan(), crypto::KeyRing{});
  std::string whole = Bytes();

  Overwrite(whole.substr(0, whole.size() / 2));
  auto truncated = ReadPlanFile(path, crypto::KeyRing{});
  ASSERT_FALSE(truncated.ok());
  EXPECT_EQ(truncated.status().code(), StateCode::Corrupt);
  EXPECT_THAT(truncated.status().message(), HasSubstr(path + " is damaged"));

  nlohmann::json doc = nlohmann::json::parse(whole);
  doc["changes"][2].erase("action");
  Overwrite(doc.dump());
  auto no_action = ReadPlanFile(path, crypto::KeyRing{});
  ASSERT_FALSE(no_action.ok());
  EXPECT_EQ(no_action.status().code(), StateCode::Corrupt);
  EXPECT_THAT(no_action.status().message(), HasSubstr("changes[2].action"));

  doc = nlohmann::json::parse(whole);
  doc["changes"][0]["after"]["unknown"].push_back({"no_such_attribute"});
  Overwrite(doc.dump());
  auto stray = ReadPlanFile(path, crypto::KeyRing{});
  ASSERT_FALSE(stray.ok());
  EXPECT_EQ(stray.status().code(), StateCode::Corrupt);
  EXPECT_THAT(stray.status().message(), HasSubstr("changes[0].after"));

  doc = nlohmann::json::parse(whole);
  doc["changes"][0]["timeouts"]["create"] = "soon";
  Overwrite(doc.dump());
  auto bad_timeout = ReadPlanFile(path, crypto::KeyRing{});
  ASSERT_FALSE(bad_timeout.ok());
  EXPECT_THAT(bad_timeout.status().message(), HasSubstr("changes[0].timeouts.create: not a duration"));
}

TEST_F(PlanFileTest, FileIsPrivateAndReplacedWhole) {
  Overwrite("an older, world-readable file");
  ASSERT_EQ(::chmod(path.c_str(), 0644), 0);
  mode_t old_umask = ::umask(0);
  Write(FullPlan(), Ring(key));
  ::umask(old_umask);
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  // Only the plan is left in the directory: the temporary file was renamed into place.
  int entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    ++entries;
    EXPECT_EQ(e.path().string(), path);
  }
  EXPECT_EQ(entries, 1);
  EXPECT_TRUE(ReadPlanFile(path, Ring(key)).ok());
}

TEST_F(PlanFileTest, WriteFailureNamesTheFile) {
  std::string bad = dir.File("no-such-dir/eks.plan");
  StateStatus st = WritePlanFile(bad, FullPlan(), crypto::KeyRing{}, env);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), StateCode::Io);
  EXPECT_THAT(st.message(), HasSubstr("cannot write plan file " + bad));
}

}  // namespace
}  // namespace strata::state
