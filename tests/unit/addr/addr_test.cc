#include "engine/addr/addr.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(AddrTest, RendersModulePathTypeNameAndKey) {
  ResourceInstanceAddr a{ModulePath{}.Child("eks"), {ResourceMode::Managed, "aws_eks_node_group", "gpu"}, InstanceKey::String("spot")};
  EXPECT_EQ(a.ToString(), "module.eks.aws_eks_node_group.gpu[\"spot\"]");
  ResourceInstanceAddr d{{}, {ResourceMode::Data, "aws_region", "current"}, InstanceKey::Int(2)};
  EXPECT_EQ(d.ToString(), "data.aws_region.current[2]");
}

TEST(AddrTest, ParsesWhatItRenders) {
  for (const char* text : {"aws_vpc.main", "null_resource.a[0]", "module.eks.aws_eks_node_group.gpu[\"spot\"]",
                           "module.a[\"x\"].module.b[3].data.aws_region.current", "random_id.x[\"a \\\"q\\\" b\"]"}) {
    AddrParseResult r = ParseResourceInstanceAddr(text);
    ASSERT_TRUE(r.addr) << text << ": " << r.error;
    EXPECT_EQ(r.addr->ToString(), text);
  }
}

TEST(AddrTest, ParseKnowsWhetherAKeyWasGiven) {
  EXPECT_FALSE(ParseResourceInstanceAddr("null_resource.a").has_key);
  EXPECT_TRUE(ParseResourceInstanceAddr("null_resource.a[0]").has_key);
}

TEST(AddrTest, ParseErrorsSayWhatWasExpected) {
  EXPECT_NE(ParseResourceInstanceAddr("vpc").error.find("expected a resource address"), std::string::npos);
  EXPECT_NE(ParseResourceInstanceAddr("aws_vpc.").error.find("expected a resource name"), std::string::npos);
  EXPECT_NE(ParseResourceInstanceAddr("aws_vpc.a[x]").error.find("instance key"), std::string::npos);
  EXPECT_NE(ParseResourceInstanceAddr("aws_vpc.a extra").error.find("unexpected text"), std::string::npos);
  EXPECT_NE(ParseResourceInstanceAddr("module.").error.find("module name"), std::string::npos);
}

TEST(AddrTest, AddressesOrderAndCompareAsValues) {
  auto a = *ParseResourceInstanceAddr("null_resource.a[1]").addr;
  auto b = *ParseResourceInstanceAddr("null_resource.a[10]").addr;
  auto c = *ParseResourceInstanceAddr("null_resource.a[\"x\"]").addr;
  EXPECT_LT(a, b);  // integer keys order numerically
  EXPECT_LT(b, c);  // int keys before string keys
  EXPECT_EQ(a.WithoutKey(), c.WithoutKey());
}

TEST(AddrTest, ParsesModulePaths) {
  auto p = ParseModulePath("module.a.module.b[\"k\"]");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->ToString(), "module.a.module.b[\"k\"]");
  EXPECT_FALSE(ParseModulePath("aws_vpc.main"));
}

}  // namespace
}  // namespace strata
