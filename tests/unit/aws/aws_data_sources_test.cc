// The aws provider's data sources that need no AWS API: aws_partition (from the region),
// aws_iam_policy_document (Terraform's JSON layout, merging by Sid) and
// aws_eks_cluster_auth (a k8s-aws-v1. token: a presigned STS GetCallerIdentity URL that
// signs x-k8s-aws-id). The provider is configured with static keys and never called out.

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "engine/base/base64.h"
#include "engine/value/format.h"
#include "providers/aws/http/url.h"
#include "providers/aws/aws_provider.h"

namespace strata::aws {
namespace {

Value S(const std::string& s) { return Value::String(s); }
Value Strings(std::initializer_list<const char*> items) {
  ValueList out;
  for (const char* s : items) out.push_back(S(s));
  return Value::List(std::move(out));
}
std::string Str(const Value& v, const std::string& name) {
  auto it = v.AsMap().find(name);
  return it != v.AsMap().end() && it->second.IsString() ? it->second.AsString() : "<missing>";
}
std::string Text(const Diagnostics& diags) {
  std::string out;
  for (const Diagnostic& d : diags) out += d.summary + ": " + d.detail + "\n";
  return out;
}

class AwsDataSourcesTest : public ::testing::Test {
 protected:
  void Configure(const std::string& region, Value endpoints = Value()) {
    ValueMap settings = {{"region", S(region)}, {"access_key", S("AKIDEXAMPLE")},
                         {"secret_key", S("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")}};
    if (!endpoints.IsNull()) settings["endpoints"] = endpoints;
    Diagnostics diags = provider_.Configure(ctx_, Value::Object(settings));
    ASSERT_FALSE(diags.HasErrors()) << Text(diags);
  }
  Value Read(const std::string& type, const Value& config) {
    ReadResult r = provider_.ReadDataSource(ctx_, type, config);
    EXPECT_FALSE(r.diags.HasErrors()) << Text(r.diags);
    return r.state;
  }
  std::string PolicyJson(const Value& config) { return Str(Read("aws_iam_policy_document", config), "json"); }

  OperationContext ctx_;
  AwsProvider provider_;
};

TEST_F(AwsDataSourcesTest, PartitionFollowsTheRegion) {
  Configure("eu-west-1");
  Value p = Read("aws_partition", Value::Object({}));
  EXPECT_EQ(Str(p, "partition"), "aws");
  EXPECT_EQ(Str(p, "id"), "aws");
  EXPECT_EQ(Str(p, "dns_suffix"), "amazonaws.com");
  EXPECT_EQ(Str(p, "reverse_dns_prefix"), "com.amazonaws");
}

TEST_F(AwsDataSourcesTest, PartitionOfChinaAndGovCloud) {
  Configure("cn-north-1");
  Value p = Read("aws_partition", Value::Object({}));
  EXPECT_EQ(Str(p, "partition"), "aws-cn");
  EXPECT_EQ(Str(p, "dns_suffix"), "amazonaws.com.cn");
  EXPECT_EQ(Str(p, "reverse_dns_prefix"), "cn.com.amazonaws");

  AwsProvider gov;
  ASSERT_FALSE(gov.Configure(ctx_, Value::Object({{"region", S("us-gov-west-1")},
                                                  {"access_key", S("a")},
                                                  {"secret_key", S("b")}}))
                   .HasErrors());
  ReadResult r = gov.ReadDataSource(ctx_, "aws_partition", Value::Object({}));
  EXPECT_EQ(Str(r.state, "partition"), "aws-us-gov");
}

TEST_F(AwsDataSourcesTest, PolicyDocumentLayoutIsTerraforms) {
  Configure("us-east-1");
  Value statement = Value::Object({
      {"sid", S("ReadBucket")},
      {"actions", Strings({"s3:ListBucket", "s3:GetObject"})},
      {"resources", Strings({"arn:aws:s3:::b/&{aws:username}/*"})},
      {"principals", Value::List({Value::Object({{"type", S("AWS")},
                                                 {"identifiers", Strings({"arn:aws:iam::123456789012:root"})}})})},
      {"condition", Value::List({Value::Object({{"test", S("StringEquals")},
                                                {"variable", S("aws:PrincipalTag/team")},
                                                {"values", Strings({"a", "b"})}})})},
  });
  std::string json = PolicyJson(Value::Object({{"statement", Value::List({statement})}}));
  EXPECT_EQ(json,
            "{\n"
            "  \"Version\": \"2012-10-17\",\n"
            "  \"Statement\": [\n"
            "    {\n"
            "      \"Sid\": \"ReadBucket\",\n"
            "      \"Effect\": \"Allow\",\n"
            "      \"Action\": [\n"
            "        \"s3:ListBucket\",\n"
            "        \"s3:GetObject\"\n"
            "      ],\n"
            "      \"Resource\": \"arn:aws:s3:::b/${aws:username}/*\",\n"
            "      \"Principal\": {\n"
            "        \"AWS\": \"arn:aws:iam::123456789012:root\"\n"
            "      },\n"
            "      \"Condition\": {\n"
            "        \"StringEquals\": {\n"
            "          \"aws:PrincipalTag/team\": [\n"
            "            \"b\",\n"
            "            \"a\"\n"
            "          ]\n"
            "        }\n"
            "      }\n"
            "    }\n"
            "  ]\n"
            "}");
}

TEST_F(AwsDataSourcesTest, PolicyDocumentMinifiedIdAndDefaults) {
  Configure("us-east-1");
  Value config = Value::Object({{"statement", Value::List({Value::Object(
                                                  {{"actions", Strings({"sts:AssumeRole"})},
                                                   {"principals", Value::List({Value::Object(
                                                                      {{"type", S("Service")},
                                                                       {"identifiers", Strings({"eks.amazonaws.com"})}})})}})})}});
  Value doc = Read("aws_iam_policy_document", config);
  EXPECT_EQ(Str(doc, "minified_json"),
            R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"sts:AssumeRole",)"
            R"("Principal":{"Service":"eks.amazonaws.com"}}]})");
  // Deterministic: the same config gives the same text and id.
  Value again = Read("aws_iam_policy_document", config);
  EXPECT_EQ(Str(doc, "json"), Str(again, "json"));
  EXPECT_EQ(Str(doc, "id"), Str(again, "id"));
  EXPECT_FALSE(Str(doc, "id").empty());
  EXPECT_EQ(Str(doc, "id").find_first_not_of("0123456789"), std::string::npos);
}

TEST_F(AwsDataSourcesTest, PolicyDocumentWildcardPrincipalAndGoEscaping) {
  Configure("us-east-1");
  Value config = Value::Object(
      {{"statement", Value::List({Value::Object(
                         {{"effect", S("Deny")},
                          {"not_actions", Strings({"iam:*"})},
                          {"resources", Strings({"*"})},
                          {"principals", Value::List({Value::Object({{"type", S("*")}, {"identifiers", Strings({"*"})}})})},
                          {"condition", Value::List({Value::Object({{"test", S("StringLike")},
                                                                    {"variable", S("aws:userid")},
                                                                    {"values", Strings({"a<b&c>"})}})})}})})}});
  EXPECT_EQ(Str(Read("aws_iam_policy_document", config), "minified_json"),
            R"({"Version":"2012-10-17","Statement":[{"Effect":"Deny","NotAction":"iam:*","Resource":"*",)"
            R"("Principal":"*","Condition":{"StringLike":{"aws:userid":"a\u003cb\u0026c\u003e"}}}]})");
}

TEST_F(AwsDataSourcesTest, PolicyDocumentMergesSourcesAndOverridesBySid) {
  Configure("us-east-1");
  std::string source = R"({"Version":"2012-10-17","Statement":[)"
                       R"({"Sid":"A","Effect":"Allow","Action":"s3:GetObject","Resource":"*"},)"
                       R"({"Effect":"Allow","Resource":"*","Action":"ec2:Describe*"}]})";
  std::string override_doc = R"({"Statement":[{"Sid":"B","Effect":"Deny","Action":"s3:*","Resource":"*"}]})";
  Value config = Value::Object(
      {{"source_policy_documents", Strings({source.c_str()})},
       {"override_policy_documents", Strings({override_doc.c_str()})},
       {"statement", Value::List({Value::Object({{"sid", S("A")}, {"actions", Strings({"s3:PutObject"})}, {"resources", Strings({"*"})}}),
                                  Value::Object({{"sid", S("B")}, {"actions", Strings({"s3:ListBucket"})}, {"resources", Strings({"*"})}})})}});
  EXPECT_EQ(Str(Read("aws_iam_policy_document", config), "minified_json"),
            R"({"Version":"2012-10-17","Statement":[)"
            R"({"Sid":"A","Effect":"Allow","Action":"s3:PutObject","Resource":"*"},)"
            R"({"Effect":"Allow","Action":"ec2:Describe*","Resource":"*"},)"
            R"({"Sid":"B","Effect":"Deny","Action":"s3:*","Resource":"*"}]})");
}

TEST_F(AwsDataSourcesTest, PolicyDocumentRejectsDuplicateSidsAndBadEffect) {
  Configure("us-east-1");
  Value dup = Value::Object({{"statement", Value::List({Value::Object({{"sid", S("X")}, {"actions", Strings({"a:b"})}}),
                                                        Value::Object({{"sid", S("X")}, {"actions", Strings({"a:c"})}})})}});
  EXPECT_TRUE(provider_.ReadDataSource(ctx_, "aws_iam_policy_document", dup).diags.HasErrors());
  Value bad = Value::Object({{"statement", Value::List({Value::Object({{"effect", S("Maybe")}, {"actions", Strings({"a:b"})}})})}});
  EXPECT_TRUE(provider_.ReadDataSource(ctx_, "aws_iam_policy_document", bad).diags.HasErrors());
}

TEST_F(AwsDataSourcesTest, EksClusterAuthTokenIsAPresignedStsUrl) {
  Configure("eu-central-1");
  ReadResult r = provider_.ReadDataSource(ctx_, "aws_eks_cluster_auth", Value::Object({{"name", S("demo")}}));
  ASSERT_FALSE(r.diags.HasErrors()) << Text(r.diags);
  EXPECT_EQ(Str(r.state, "id"), "demo");
  Value token = r.state.AsMap().at("token");
  ASSERT_TRUE(token.IsString());
  EXPECT_TRUE(token.IsSensitive());
  const std::string& text = token.AsString();
  ASSERT_EQ(text.rfind("k8s-aws-v1.", 0), 0u) << text;
  std::string b64 = text.substr(11);
  EXPECT_EQ(b64.find_first_of("+/="), std::string::npos) << "base64url without padding";
  for (char& c : b64) c = c == '-' ? '+' : c == '_' ? '/' : c;
  while (b64.size() % 4) b64 += '=';
  auto decoded = base::Base64Decode(b64);
  ASSERT_TRUE(decoded);
  std::string url = *decoded;
  EXPECT_EQ(url.rfind("https://sts.eu-central-1.amazonaws.com/?", 0), 0u) << url;
  EXPECT_NE(url.find("Action=GetCallerIdentity"), std::string::npos) << url;
  EXPECT_NE(url.find("X-Amz-Algorithm=AWS4-HMAC-SHA256"), std::string::npos) << url;
  EXPECT_NE(url.find("X-Amz-Credential=AKIDEXAMPLE%2F"), std::string::npos) << url;
  EXPECT_NE(url.find("X-Amz-SignedHeaders=host%3Bx-k8s-aws-id"), std::string::npos) << url;
  EXPECT_NE(url.find("X-Amz-Signature="), std::string::npos) << url;

  ProviderSchema schema = provider_.Schema();
  const ResourceSchema* auth = schema.Find(ResourceMode::Data, "aws_eks_cluster_auth");
  ASSERT_NE(auth, nullptr);
  EXPECT_TRUE(auth->attributes.at("token").sensitive);
}

TEST_F(AwsDataSourcesTest, EksClusterAuthTokenAimsAtTheStsEndpointOverride) {
  Configure("us-west-2", Value::Map({{"sts", S("http://127.0.0.1:4566")}}));
  ReadResult r = provider_.ReadDataSource(ctx_, "aws_eks_cluster_auth", Value::Object({{"name", S("demo")}}));
  ASSERT_FALSE(r.diags.HasErrors()) << Text(r.diags);
  std::string b64 = r.state.AsMap().at("token").AsString().substr(11);
  for (char& c : b64) c = c == '-' ? '+' : c == '_' ? '/' : c;
  while (b64.size() % 4) b64 += '=';
  auto decoded = base::Base64Decode(b64);
  ASSERT_TRUE(decoded);
  std::string url = *decoded;
  EXPECT_EQ(url.rfind("http://127.0.0.1:4566/?", 0), 0u) << url;
}

TEST_F(AwsDataSourcesTest, NewTypesAreInTheSchema) {
  Configure("us-east-1");
  ProviderSchema schema = provider_.Schema();
  for (const char* type : {"aws_iam_openid_connect_provider", "aws_iam_instance_profile", "aws_eks_cluster",
                           "aws_eks_node_group", "aws_eks_addon"}) {
    EXPECT_NE(schema.Find(ResourceMode::Managed, type), nullptr) << type;
  }
  for (const char* type : {"aws_partition", "aws_iam_policy_document", "aws_eks_cluster", "aws_eks_cluster_auth"}) {
    EXPECT_NE(schema.Find(ResourceMode::Data, type), nullptr) << type;
  }
}

}  // namespace
}  // namespace strata::aws
