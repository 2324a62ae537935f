// Label and field selectors as LIST takes them (kube's labels.Parse and fields.Parse).

#include "sandbox/kubernetes/selectors.h"

#include <gtest/gtest.h>

namespace strata::sandbox::k8s {
namespace {

using nlohmann::json;

LabelSelector Labels(const std::string& text) {
  std::string error;
  std::optional<LabelSelector> s = LabelSelector::Parse(text, error);
  EXPECT_TRUE(s) << text << ": " << error;
  return s.value_or(LabelSelector());
}

TEST(LabelSelectorTest, EmptySelectsEverything) {
  EXPECT_TRUE(Labels("").Matches(json::object()));
  EXPECT_TRUE(Labels("  ").Matches(nullptr));
}

TEST(LabelSelectorTest, EqualityForms) {
  json labels = {{"app", "web"}, {"tier", "front"}};
  EXPECT_TRUE(Labels("app=web").Matches(labels));
  EXPECT_TRUE(Labels("app==web").Matches(labels));
  EXPECT_FALSE(Labels("app=db").Matches(labels));
  EXPECT_TRUE(Labels("app!=db").Matches(labels));
  EXPECT_FALSE(Labels("app!=web").Matches(labels));
  EXPECT_TRUE(Labels("app=web,tier=front").Matches(labels));
  EXPECT_FALSE(Labels("app=web, tier=back").Matches(labels));
}

TEST(LabelSelectorTest, NotEqualAndNotInHoldWhenTheLabelIsAbsent) {
  EXPECT_TRUE(Labels("app!=web").Matches(json::object()));
  EXPECT_TRUE(Labels("app notin (web)").Matches(json::object()));
  EXPECT_FALSE(Labels("app in (web)").Matches(json::object()));
  EXPECT_FALSE(Labels("app=").Matches(json::object()));
}

TEST(LabelSelectorTest, SetForms) {
  json labels = {{"env", "prod"}};
  EXPECT_TRUE(Labels("env in (prod, staging)").Matches(labels));
  EXPECT_FALSE(Labels("env in (dev,staging)").Matches(labels));
  EXPECT_TRUE(Labels("env notin (dev,staging)").Matches(labels));
  EXPECT_FALSE(Labels("env notin (prod)").Matches(labels));
}

TEST(LabelSelectorTest, ExistenceForms) {
  json labels = {{"kubernetes.io/name", "x"}};
  EXPECT_TRUE(Labels("kubernetes.io/name").Matches(labels));
  EXPECT_FALSE(Labels("!kubernetes.io/name").Matches(labels));
  EXPECT_TRUE(Labels("!other").Matches(labels));
  EXPECT_FALSE(Labels("other").Matches(labels));
  EXPECT_TRUE(Labels("kubernetes.io/name,!other").Matches(labels));
}

TEST(LabelSelectorTest, ParsesAllRequirements) {
  LabelSelector s = Labels("a=1,b!=2,c in (3,4),d notin (5),e,!f");
  ASSERT_EQ(s.requirements().size(), 6u);
  EXPECT_EQ(s.requirements()[2].op, LabelRequirement::Op::In);
  EXPECT_EQ(s.requirements()[2].values, (std::vector<std::string>{"3", "4"}));
  EXPECT_EQ(s.requirements()[5].op, LabelRequirement::Op::DoesNotExist);
}

TEST(LabelSelectorTest, SyntaxErrorsSayWhatWasExpected) {
  for (const char* bad : {"a in 3", "a in (3", "a ~ b", "=b", "a=b c", "!"}) {
    std::string error;
    EXPECT_FALSE(LabelSelector::Parse(bad, error)) << bad;
    EXPECT_NE(error.find("unable to parse requirement"), std::string::npos) << bad << ": " << error;
  }
}

TEST(FieldSelectorTest, NameAndNamespace) {
  json object = {{"metadata", {{"name", "web"}, {"namespace", "prod"}}}, {"status", {{"phase", "Running"}}}};
  std::string error;
  auto s = FieldSelector::Parse("metadata.name=web,metadata.namespace==prod", error);
  ASSERT_TRUE(s) << error;
  EXPECT_TRUE(s->Matches(object));
  s = FieldSelector::Parse("metadata.name!=web", error);
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->Matches(object));
  s = FieldSelector::Parse("status.phase=Running", error);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->Matches(object));
  s = FieldSelector::Parse("spec.nodeName=", error);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->Matches(object)) << "a missing field reads as empty";
}

TEST(FieldSelectorTest, RefusesTermsWithoutOperator) {
  std::string error;
  EXPECT_FALSE(FieldSelector::Parse("metadata.name", error));
  EXPECT_NE(error.find("invalid selector"), std::string::npos);
}

}  // namespace
}  // namespace strata::sandbox::k8s
