// The EC2 batch read on the wire, against a scripted EC2 endpoint: one DescribeSubnets
// filtered on the ids with MaxResults, its NextToken followed to the last page; a filtered
// call that fails is done again one id at a time, so each object gets its own answer.

#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "providers/aws/aws_provider.h"
#include "test_support.h"

namespace strata::aws {
namespace {

//! EC2 answering DescribeSubnets: filtered calls in pages of `page` subnets (or refused when
//! `refuse_filters`), single-id calls with the subnet or InvalidSubnetID.NotFound. Subnets
//! whose id is in `exists` exist.
class ScriptedSubnets {
 public:
  ScriptedSubnets() {
    server_.server().Post("/", [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard lock(mu_);
      std::map<std::string, std::string> params = testing::FormParams(req.body);
      calls.push_back(params);
      std::vector<std::string> wanted;
      if (params.count("Filter.1.Name")) {
        if (refuse_filters) return Refuse(res, "InvalidParameterValue", "The filter 'subnet-id' is invalid");
        for (int k = 1; params.count("Filter.1.Value." + std::to_string(k)); ++k) {
          wanted.push_back(params["Filter.1.Value." + std::to_string(k)]);
        }
      } else {
        wanted.push_back(params["SubnetId.1"]);
        if (!exists.count(wanted[0])) return Refuse(res, "InvalidSubnetID.NotFound", "The subnet ID '" + wanted[0] + "' does not exist");
      }
      std::vector<std::string> found;
      for (const std::string& id : wanted) {
        if (exists.count(id)) found.push_back(id);
      }
      size_t from = params.count("NextToken") ? std::stoul(params["NextToken"]) : 0;
      size_t to = params.count("Filter.1.Name") ? std::min(found.size(), from + page) : found.size();
      std::string items;
      for (size_t i = from; i < to; ++i) {
        items += "<item><subnetId>" + found[i] + "</subnetId><vpcId>vpc-1</vpcId><cidrBlock>10.0." +
                 std::to_string(i) + ".0/24</cidrBlock><ownerId>111122223333</ownerId><tagSet/></item>";
      }
      std::string next = to < found.size() ? "<nextToken>" + std::to_string(to) + "</nextToken>" : "";
      res.set_content("<DescribeSubnetsResponse xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\"><requestId>r</requestId>"
                      "<subnetSet>" + items + "</subnetSet>" + next + "</DescribeSubnetsResponse>",
                      "text/xml");
    });
    server_.Start();
  }

  std::string url() const { return server_.url(); }

  std::set<std::string> exists;
  size_t page = 2;
  bool refuse_filters = false;
  std::vector<std::map<std::string, std::string>> calls;

 private:
  static void Refuse(httplib::Response& res, const std::string& code, const std::string& message) {
    res.status = 400;
    res.set_content("<Response><Errors><Error><Code>" + code + "</Code><Message>" + message +
                        "</Message></Error></Errors><RequestID>r</RequestID></Response>",
                    "text/xml");
  }

  std::mutex mu_;
  testing::LocalServer server_;
};

class AwsEc2BatchReadWireTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Value settings = Value::Object({{"region", Value::String("us-east-1")},
                                    {"endpoints", Value::Map({{"ec2", Value::String(ec2_.url())}})},
                                    {"access_key", Value::String("testing")},
                                    {"secret_key", Value::String("testing")},
                                    {"max_retries", Value::Number(0)}});
    ASSERT_FALSE(provider_.Configure(ctx_, settings).HasErrors());
  }
  static std::vector<Value> Priors(const std::vector<std::string>& ids) {
    std::vector<Value> out;
    for (const std::string& id : ids) out.push_back(Value::Object({{"id", Value::String(id)}}));
    return out;
  }

  ScriptedSubnets ec2_;
  OperationContext ctx_;
  AwsProvider provider_{std::make_shared<MapEnvironment>()};
};

TEST_F(AwsEc2BatchReadWireTest, FollowsNextTokenToTheLastPage) {
  ec2_.exists = {"subnet-1", "subnet-2", "subnet-3", "subnet-5", "subnet-6"};
  std::vector<ReadResult> read =
      provider_.ReadResources(ctx_, "aws_subnet", Priors({"subnet-1", "subnet-2", "subnet-3", "subnet-4", "subnet-5", "subnet-6"}));
  ASSERT_EQ(read.size(), 6u);
  ASSERT_EQ(ec2_.calls.size(), 3u) << "five found, two to a page";
  EXPECT_EQ(ec2_.calls[0]["Filter.1.Name"], "subnet-id");
  EXPECT_EQ(ec2_.calls[0]["Filter.1.Value.6"], "subnet-6");
  EXPECT_EQ(ec2_.calls[0]["MaxResults"], "1000");
  EXPECT_EQ(ec2_.calls[0].count("NextToken"), 0u);
  EXPECT_EQ(ec2_.calls[1]["NextToken"], "2");
  EXPECT_EQ(ec2_.calls[2]["NextToken"], "4");
  for (size_t i : {0u, 1u, 2u, 4u, 5u}) {
    EXPECT_FALSE(read[i].gone) << i;
    EXPECT_FALSE(read[i].diags.HasErrors());
    EXPECT_EQ(read[i].state.AsMap().at("id"), Value::String("subnet-" + std::to_string(i + 1)));
  }
  EXPECT_TRUE(read[3].gone) << "missing from every page: gone";
}

TEST_F(AwsEc2BatchReadWireTest, AFailedFilteredCallIsDoneAgainOneIdAtATime) {
  ec2_.exists = {"subnet-1"};
  ec2_.refuse_filters = true;
  std::vector<ReadResult> read = provider_.ReadResources(ctx_, "aws_subnet", Priors({"subnet-1", "subnet-2"}));
  ASSERT_EQ(read.size(), 2u);
  ASSERT_EQ(ec2_.calls.size(), 3u) << "the refused filtered call, then one call per id";
  EXPECT_EQ(ec2_.calls[1]["SubnetId.1"], "subnet-1");
  EXPECT_FALSE(read[0].diags.HasErrors());
  EXPECT_EQ(read[0].state.AsMap().at("id"), Value::String("subnet-1"));
  EXPECT_TRUE(read[1].gone) << "InvalidSubnetID.NotFound, as ever";
  EXPECT_FALSE(read[1].diags.HasErrors());
}

}  // namespace
}  // namespace strata::aws
