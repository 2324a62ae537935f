#include "state/sensitive_paths.h"

#include <gtest/gtest.h>

namespace strata::state {
namespace {

TEST(SensitivePathsTest, SplitsOutermostMarkedNodes) {
  Value v = Value::Object({
      {"name", Value::String("db")},
      {"password", Value::String("hunter2").MarkSensitive()},
      {"users", Value::Tuple({Value::Object({{"token", Value::String("t0").MarkSensitive()}})})},
      {"creds", Value::Object({{"a", Value::String("x").MarkSensitive()}}).MarkSensitive()},
  });
  SensitiveSplit split = SplitSensitive(v);
  EXPECT_EQ(split.clear["name"], "db");
  EXPECT_TRUE(split.clear["password"].is_null());
  EXPECT_TRUE(split.clear["creds"].is_null());
  EXPECT_TRUE(split.clear["users"][0]["token"].is_null());
  ASSERT_EQ(split.paths.size(), 3u);
  EXPECT_EQ(split.paths[0], nlohmann::json::parse(R"(["creds"])"));
  EXPECT_EQ(split.paths[1], nlohmann::json::parse(R"(["password"])"));
  EXPECT_EQ(split.paths[2], nlohmann::json::parse(R"(["users", 0, "token"])"));
  EXPECT_EQ(split.clear.dump().find("hunter2"), std::string::npos);
}

TEST(SensitivePathsTest, JoinRestoresValuesAndMarks) {
  Value v = Value::Object({
      {"password", Value::String("hunter2").MarkSensitive()},
      {"list", Value::Tuple({Value::Number(1), Value::Number(2).MarkSensitive()})},
  });
  SensitiveSplit split = SplitSensitive(v);
  std::vector<std::optional<nlohmann::json>> values(split.values.begin(), split.values.end());
  Value back = JoinSensitive(split.clear, split.paths, values);
  EXPECT_TRUE(back.Equals(v));
  EXPECT_TRUE(back.AsMap().at("password").IsSensitive());
  EXPECT_TRUE(back.AsMap().at("list").AsList()[1].IsSensitive());
  EXPECT_FALSE(back.AsMap().at("list").AsList()[0].IsSensitive());

  Value masked = MaskedValue(split.clear, split.paths);
  EXPECT_TRUE(masked.AsMap().at("password").IsNull());
  EXPECT_TRUE(masked.AsMap().at("password").IsSensitive());
}

TEST(SensitivePathsTest, WholeValueSensitive) {
  Value v = Value::String("s3cr3t").MarkSensitive();
  SensitiveSplit split = SplitSensitive(v);
  EXPECT_TRUE(split.clear.is_null());
  ASSERT_EQ(split.paths.size(), 1u);
  EXPECT_TRUE(split.paths[0].empty());
  Value back = JoinSensitive(split.clear, split.paths, {split.values[0]});
  EXPECT_EQ(back.AsString(), "s3cr3t");
  EXPECT_TRUE(back.IsSensitive());
}

}  // namespace
}  // namespace strata::state
