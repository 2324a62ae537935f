// aws_nat_gateway on the wire, against a scripted EC2 endpoint (no emulator): the engine's
// idempotency token goes out as ClientToken, the create waits through "pending" with
// progress, and a gateway that ends "failed" is reported with AWS's failure code while its
// id is kept (the engine records it as tainted).

#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "providers/aws/aws_provider.h"
#include "test_support.h"

namespace strata::aws {
namespace {

//! EC2 answering CreateNatGateway (one gateway per ClientToken) and DescribeNatGateways
//! ("pending" for the first `pending_looks` looks, then `final_state`).
class ScriptedEc2 {
 public:
  ScriptedEc2() {
    server_.server().Post("/", [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard lock(mu_);
      std::map<std::string, std::string> params = testing::FormParams(req.body);
      std::string action = params["Action"];
      actions.push_back(action);
      if (action == "CreateNatGateway") {
        client_tokens.push_back(params["ClientToken"]);
        std::string& id = by_token_[params["ClientToken"]];
        if (id.empty()) id = "nat-" + std::to_string(1000 + by_token_.size());
        res.set_content(Wrap(action, "<natGateway><natGatewayId>" + id + "</natGatewayId><state>pending</state></natGateway>"),
                        "text/xml");
        return;
      }
      if (action == "DescribeNatGateways") {
        std::string id = params["NatGatewayId.1"];
        std::string state = looks_[id]++ < pending_looks ? "pending" : final_state;
        res.set_content(Wrap(action, "<natGatewaySet><item><natGatewayId>" + id + "</natGatewayId><subnetId>subnet-1</subnetId>"
                                     "<state>" + state + "</state><connectivityType>public</connectivityType>"
                                     "<failureCode>InsufficientFreeAddressesInSubnet</failureCode>"
                                     "<failureMessage>Subnet has insufficient free addresses</failureMessage>"
                                     "<natGatewayAddressSet><item><allocationId>eipalloc-1</allocationId>"
                                     "<networkInterfaceId>eni-1</networkInterfaceId><privateIp>10.0.1.5</privateIp>"
                                     "<publicIp>203.0.113.7</publicIp><associationId>eipassoc-1</associationId>"
                                     "<isPrimary>true</isPrimary></item></natGatewayAddressSet><tagSet/></item></natGatewaySet>"),
                        "text/xml");
        return;
      }
      res.status = 400;
      res.set_content("<Response><Errors><Error><Code>InvalidAction</Code><Message>" + action +
                          "</Message></Error></Errors><RequestID>r</RequestID></Response>",
                      "text/xml");
    });
    server_.Start();
  }

  std::string url() const { return server_.url(); }

  int pending_looks = 2;
  std::string final_state = "available";
  std::vector<std::string> actions;
  std::vector<std::string> client_tokens;

 private:
  static std::string Wrap(const std::string& action, const std::string& body) {
    return "<" + action + "Response xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\"><requestId>req-1</requestId>" +
           body + "</" + action + "Response>";
  }

  std::mutex mu_;
  std::map<std::string, std::string> by_token_;
  std::map<std::string, int> looks_;
  testing::LocalServer server_;
};

class AwsNatGatewayWireTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Value settings = Value::Object({{"region", Value::String("us-east-1")},
                                    {"endpoints", Value::Map({{"ec2", Value::String(ec2_.url())}})},
                                    {"access_key", Value::String("testing")},
                                    {"secret_key", Value::String("testing")},
                                    {"max_retries", Value::Number(0)}});
    Diagnostics diags = provider_.Configure(ctx_, settings);
    ASSERT_FALSE(diags.HasErrors());
    ctx_.progress = [this](const std::string& line) { progress_.push_back(line); };
  }

  ApplyResult CreateNat() {
    Value config = Value::Object({{"subnet_id", Value::String("subnet-1")}, {"allocation_id", Value::String("eipalloc-1")}});
    PlanResult plan = provider_.PlanResourceChange(ctx_, "aws_nat_gateway", Value(), config, config);
    EXPECT_FALSE(plan.diags.HasErrors());
    return provider_.CreateResource(ctx_, "aws_nat_gateway", plan.planned);
  }

  ScriptedEc2 ec2_;
  OperationContext ctx_;
  AwsProvider provider_{std::make_shared<MapEnvironment>()};
  std::vector<std::string> progress_;
};

TEST_F(AwsNatGatewayWireTest, SendsTheIdempotencyTokenAsClientTokenAndWaitsForAvailable) {
  ctx_.idempotency_token = "5f0c3d0e9a8b7c6d5e4f3a2b1c0d9e8f";
  ApplyResult first = CreateNat();
  ASSERT_FALSE(first.diags.HasErrors());
  EXPECT_EQ(ec2_.client_tokens, std::vector<std::string>{"5f0c3d0e9a8b7c6d5e4f3a2b1c0d9e8f"});
  EXPECT_EQ(first.state.AsMap().at("public_ip"), Value::String("203.0.113.7"));
  EXPECT_EQ(first.state.AsMap().at("network_interface_id"), Value::String("eni-1"));
  // Two "pending" looks: the second one is reported as progress.
  ASSERT_FALSE(progress_.empty());
  EXPECT_NE(progress_.front().find("pending"), std::string::npos) << progress_.front();

  // A retried create (same token) gets the same gateway.
  ApplyResult again = CreateNat();
  ASSERT_FALSE(again.diags.HasErrors());
  EXPECT_EQ(ec2_.client_tokens.size(), 2u);
  EXPECT_EQ(ec2_.client_tokens[1], ec2_.client_tokens[0]);
  EXPECT_EQ(again.state.AsMap().at("id"), first.state.AsMap().at("id"));
}

TEST_F(AwsNatGatewayWireTest, AFailedGatewayIsAnErrorThatKeepsItsId) {
  ec2_.pending_looks = 0;
  ec2_.final_state = "failed";
  ApplyResult result = CreateNat();
  ASSERT_TRUE(result.diags.HasErrors());
  std::string text;
  for (const Diagnostic& d : result.diags) text += d.summary + ": " + d.detail + "\n";
  EXPECT_NE(text.find("InsufficientFreeAddressesInSubnet"), std::string::npos) << text;
  ASSERT_TRUE(result.state.IsMapping());
  EXPECT_EQ(result.state.AsMap().at("id").AsString().rfind("nat-", 0), 0u);
}

TEST_F(AwsNatGatewayWireTest, ACancelledWaitStops) {
  ec2_.pending_looks = 1000;
  ctx_.cancellation.Cancel();
  ApplyResult result = CreateNat();
  // Cancelled before the create call itself, or during the wait: an error either way.
  EXPECT_TRUE(result.diags.HasErrors());
}

}  // namespace
}  // namespace strata::aws
