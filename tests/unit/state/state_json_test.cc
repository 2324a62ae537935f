#include "state/state_json.h"

#include <gtest/gtest.h>

#include "state_test_util.h"

namespace strata::state {
namespace {

using namespace testing;

StageState Sample() {
  StageState s;
  s.stage = "eks";
  s.exists = true;
  s.lineage = "11111111-2222-4333-8444-555555555555";
  s.serial = 4;
  ResourceInstanceState r = Resource("aws_db_instance.main", Value::Object({{"engine", Value::String("postgres")},
                                                                             {"password", Value::String("pw").MarkSensitive()}}));
  r.dependencies = {"aws_subnet.a"};
  r.created_at = 1'700'000'000'000;
  r.updated_at = 1'700'000'001'000;
  s.resources.push_back(r);
  s.outputs.push_back({"endpoint", Value::String("db.example"), false});
  s.outputs.push_back({"token", Value::String("t0k3n"), true});
  return s;
}

TEST(StateJsonTest, MaskedByDefault) {
  auto j = StageStateToJson(Sample(), false);
  EXPECT_TRUE(j["secrets_masked"].get<bool>());
  EXPECT_EQ(j.dump().find("\"pw\""), std::string::npos);
  EXPECT_EQ(j.dump().find("t0k3n"), std::string::npos);
  EXPECT_EQ(j["resources"][0]["sensitive_attributes"], nlohmann::json::parse(R"([["password"]])"));
  EXPECT_EQ(j["outputs"]["endpoint"]["value"], "db.example");
  EXPECT_EQ(j["resources"][0]["created_at"], "2023-11-14T22:13:20Z");
  auto back = StageStateFromJson(j);
  EXPECT_EQ(back.status().code(), StateCode::InvalidArgument);
  EXPECT_NE(back.status().message().find("-show-sensitive"), std::string::npos);
}

TEST(StateJsonTest, RoundTripsWithSecretsRevealed) {
  StageState s = Sample();
  auto j = StageStateToJson(s, true);
  EXPECT_NE(j.dump().find("t0k3n"), std::string::npos);
  auto back = StageStateFromJson(nlohmann::json::parse(j.dump()));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->lineage, s.lineage);
  EXPECT_EQ(back->serial, 4);
  const auto& r = back->resources[0];
  EXPECT_TRUE(r.attributes.Equals(s.resources[0].attributes));
  EXPECT_TRUE(r.attributes.AsMap().at("password").IsSensitive());
  EXPECT_FALSE(r.attributes.AsMap().at("engine").IsSensitive());
  EXPECT_EQ(r.dependencies, s.resources[0].dependencies);
  EXPECT_EQ(r.created_at, s.resources[0].created_at);
  EXPECT_TRUE(back->FindOutput("token")->sensitive);
  EXPECT_TRUE(back->FindOutput("token")->value.IsSensitive());
}

TEST(StateJsonTest, RejectsMalformedFiles) {
  EXPECT_FALSE(StageStateFromJson(nlohmann::json::parse("[]")).ok());
  EXPECT_FALSE(StageStateFromJson(nlohmann::json::parse(R"({"format_version": 9})")).ok());
  auto bad = StageStateFromJson(nlohmann::json::parse(
      R"({"format_version": 1, "resources": [{"address": "not an address"}]})"));
  EXPECT_NE(bad.status().message().find("not an address"), std::string::npos);
}

}  // namespace
}  // namespace strata::state
