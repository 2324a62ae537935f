#include <gtest/gtest.h>

#include "tests/unit/functions/function_test_util.h"

namespace strata {
namespace {

using namespace strata::testing;

TEST(NetworkFunctionsTest, CidrsubnetExtendsPrefix) {
  EXPECT_EQ(Call("cidrsubnet", {S("10.0.0.0/16"), N(4), N(2)}), S("10.0.32.0/20"));
  EXPECT_EQ(Call("cidrsubnet", {S("172.16.0.0/12"), N(4), N(2)}), S("172.18.0.0/16"));
  EXPECT_EQ(Call("cidrsubnet", {S("10.1.2.0/24"), N(4), N(15)}), S("10.1.2.240/28"));
  EXPECT_EQ(Call("cidrsubnet", {S("10.0.0.5/16"), N(0), N(0)}), S("10.0.0.0/16"));
  EXPECT_EQ(Call("cidrsubnet", {S("fd00:fd12:3456:7890::/56"), N(16), N(162)}),
            S("fd00:fd12:3456:7800:a200::/72"));
  EXPECT_EQ(Call("cidrsubnet", {S("2001:db8::/32"), N(8), N(1)}), S("2001:db8:100::/40"));
}

TEST(NetworkFunctionsTest, CidrsubnetErrors) {
  FunctionError e = CallError("cidrsubnet", {S("10.0.0.0/16"), N(20), N(0)});
  EXPECT_EQ(e.message, "insufficient address space to extend prefix of 16 by 20");
  EXPECT_EQ(e.arg_index, 1);
  EXPECT_EQ(CallError("cidrsubnet", {S("10.0.0.0/16"), N(4), N(16)}).message,
            "prefix extension of 4 does not accommodate a subnet numbered 16");
  EXPECT_EQ(CallError("cidrsubnet", {S("10.0.0.0"), N(4), N(1)}).message,
            "invalid CIDR address: \"10.0.0.0\"");
  EXPECT_EQ(CallError("cidrsubnet", {S("10.0.0.256/8"), N(4), N(1)}).arg_index, 0);
  EXPECT_EQ(CallError("cidrsubnet", {S("10.0.0.0/33"), N(1), N(1)}).arg_index, 0);
}

TEST(NetworkFunctionsTest, CidrsubnetsAllocatesConsecutively) {
  EXPECT_EQ(Call("cidrsubnets", {S("10.1.0.0/16"), N(4), N(4), N(8), N(4)}),
            Strings({"10.1.0.0/20", "10.1.16.0/20", "10.1.32.0/24", "10.1.48.0/20"}));
  EXPECT_EQ(Call("cidrsubnets", {S("fd00:fd12:3456:7890::/56"), N(16), N(16), N(16), N(32)}),
            Strings({"fd00:fd12:3456:7800::/72", "fd00:fd12:3456:7800:100::/72",
                     "fd00:fd12:3456:7800:200::/72", "fd00:fd12:3456:7800:300::/88"}));
  EXPECT_EQ(Call("cidrsubnets", {S("10.0.0.0/8")}), L({}));
  EXPECT_EQ(Call("cidrsubnets", {S("0.0.0.0/0"), N(1), N(1)}),
            Strings({"0.0.0.0/1", "128.0.0.0/1"}));
}

TEST(NetworkFunctionsTest, CidrsubnetsErrors) {
  FunctionError e = CallError("cidrsubnets", {S("10.0.0.0/24"), N(1), N(1), N(1)});
  EXPECT_EQ(e.message,
            "not enough remaining address space for a subnet with a prefix of 25 bits after "
            "10.0.0.128/25");
  EXPECT_EQ(e.arg_index, 3);
  EXPECT_EQ(CallError("cidrsubnets", {S("10.0.0.0/24"), N(0)}).message,
            "must extend prefix by at least one bit");
  EXPECT_EQ(CallError("cidrsubnets", {S("10.0.0.0/24"), N(9)}).message,
            "would extend prefix to 33 bits, which is too long for an IPv4 address");
}

TEST(NetworkFunctionsTest, CidrhostCountsFromEitherEnd) {
  EXPECT_EQ(Call("cidrhost", {S("10.12.112.0/20"), N(16)}), S("10.12.112.16"));
  EXPECT_EQ(Call("cidrhost", {S("10.12.112.0/20"), N(268)}), S("10.12.113.12"));
  EXPECT_EQ(Call("cidrhost", {S("10.12.112.0/20"), N(-1)}), S("10.12.127.255"));
  EXPECT_EQ(Call("cidrhost", {S("10.12.112.0/20"), N(-4096)}), S("10.12.112.0"));
  EXPECT_EQ(Call("cidrhost", {S("fd00:fd12:3456:7890:00a2::/72"), N(34)}),
            S("fd00:fd12:3456:7890::22"));
  EXPECT_EQ(Call("cidrhost", {S("::/0"), N(-1)}), S("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"));
}

TEST(NetworkFunctionsTest, CidrhostOutOfRange) {
  FunctionError e = CallError("cidrhost", {S("10.12.112.0/20"), N(4096)});
  EXPECT_EQ(e.message, "prefix of 20 does not accommodate a host numbered 4096");
  EXPECT_EQ(e.arg_index, 1);
  EXPECT_EQ(CallError("cidrhost", {S("10.12.112.0/20"), N(-4097)}).arg_index, 1);
}

TEST(NetworkFunctionsTest, CidrnetmaskIsIPv4Only) {
  EXPECT_EQ(Call("cidrnetmask", {S("172.16.0.0/12")}), S("255.240.0.0"));
  EXPECT_EQ(Call("cidrnetmask", {S("10.0.0.0/32")}), S("255.255.255.255"));
  EXPECT_EQ(Call("cidrnetmask", {S("0.0.0.0/0")}), S("0.0.0.0"));
  EXPECT_NE(CallError("cidrnetmask", {S("fd00::/8")}).message.find("IPv6"), std::string::npos);
}

TEST(NetworkFunctionsTest, UnknownAndSensitiveArguments) {
  EXPECT_TRUE(Call("cidrhost", {Value::Unknown(), N(1)}).IsUnknown());
  EXPECT_TRUE(Call("cidrhost", {S("10.0.0.0/8").MarkSensitive(), N(1)}).IsSensitive());
}

// OpenTofu's documentation examples.
TEST(NetworkFunctionsTest, CidrcontainsDocumentationExamples) {
  EXPECT_EQ(Call("cidrcontains", {S("192.168.2.0/20"), S("192.168.2.1")}), B(true));
  EXPECT_EQ(Call("cidrcontains", {S("192.168.2.0/20"), S("192.168.2.0/22")}), B(true));
  EXPECT_EQ(Call("cidrcontains", {S("192.168.2.0/20"), S("192.126.2.1")}), B(false));
  EXPECT_EQ(Call("cidrcontains", {S("192.168.2.0/20"), S("192.126.2.0/18")}), B(false));
  EXPECT_EQ(Call("cidrcontains", {S("fe80::/48"), S("fe80::1")}), B(true));
  EXPECT_EQ(Call("cidrcontains", {S("fe80::/48"), S("fe81::1")}), B(false));
}

TEST(NetworkFunctionsTest, CidrcontainsEdges) {
  EXPECT_EQ(Call("cidrcontains", {S("10.0.0.0/8"), S("10.0.0.0/8")}), B(true));
  EXPECT_EQ(Call("cidrcontains", {S("10.0.0.0/8"), S("10.0.0.0/7")}), B(false));  // wider than the container
  EXPECT_EQ(Call("cidrcontains", {S("0.0.0.0/0"), S("255.255.255.255")}), B(true));
  EXPECT_EQ(Call("cidrcontains", {S("10.1.2.3/32"), S("10.1.2.3")}), B(true));
  FunctionError family = CallError("cidrcontains", {S("192.168.2.0/20"), S("fe80::1")});
  EXPECT_EQ(family.arg_index, 1);
  EXPECT_EQ(family.message, "\"fe80::1\" is an IPv6 address and \"192.168.2.0/20\" an IPv4 prefix: both must be IPv4 or both IPv6");
  EXPECT_EQ(CallError("cidrcontains", {S("10.0.0.0/8"), S("10.0.0")}).message, "invalid IP address: \"10.0.0\"");
  EXPECT_EQ(CallError("cidrcontains", {S("10.0.0.0"), S("10.0.0.1")}).arg_index, 0);
}

}  // namespace
}  // namespace strata
