// The sandbox's Route 53 service, called directly with an in-memory world: hosted zones seeded
// from the settings, and alias record sets, whose targets must exist: a zone of the sandbox,
// or a load balancer the ELBv2 service keeps in the world (kind "elbv2_load_balancer").
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>

#include "sandbox/service.h"
#include "sandbox/world.h"

namespace strata::sandbox {
namespace {

struct Route53Answer {
  int status = 0;
  std::string body;
  std::string code;  //!< the error code, empty on success
  std::string message;
};

class Route53ServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    world_ = World::Open("");
    service_ = NewRoute53Service();
    settings_.route53_change_delay = std::chrono::seconds(1);
    settings_.seed_hosted_zones = {"Example.com."};
    now_ = std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000));
    Request none;
    ServiceContext ctx{*world_, none, settings_, now_, "", ""};
    service_->Seed(ctx);
    service_->Seed(ctx);  // a world that holds the zone already is left as it is
  }

  Route53Answer Call(const std::string& method, const std::string& path, const std::string& body = "") {
    Request request;
    request.method = method;
    request.path = path;
    request.body = body;
    request.service = "route53";
    request.region = "us-east-1";
    request.account_id = "111122223333";
    ServiceContext ctx{*world_, request, settings_, now_, "", ""};
    try {
      Response response = service_->Handle(ctx);
      return {response.status, response.body, "", ""};
    } catch (const ApiError& e) {
      return {e.status, "", e.code, e.what()};
    }
  }

  //! The id of the seeded zone, from ListHostedZonesByName.
  std::string SeededZone() {
    Route53Answer listed = Call("GET", "/2013-04-01/hostedzonesbyname");
    size_t at = listed.body.find("<Id>/hostedzone/");
    EXPECT_NE(at, std::string::npos) << listed.body;
    return listed.body.substr(at + 16, listed.body.find('<', at + 16) - at - 16);
  }

  static std::string AliasBatch(const std::string& name, const std::string& zone_id, const std::string& dns_name) {
    return "<ChangeResourceRecordSetsRequest xmlns=\"https://route53.amazonaws.com/doc/2013-04-01/\"><ChangeBatch><Changes>"
           "<Change><Action>CREATE</Action><ResourceRecordSet><Name>" + name + "</Name><Type>A</Type><AliasTarget>"
           "<HostedZoneId>" + zone_id + "</HostedZoneId><DNSName>" + dns_name + "</DNSName>"
           "<EvaluateTargetHealth>true</EvaluateTargetHealth></AliasTarget></ResourceRecordSet></Change>"
           "</Changes></ChangeBatch></ChangeResourceRecordSetsRequest>";
  }

  std::unique_ptr<World> world_;
  std::unique_ptr<Service> service_;
  SandboxSettings settings_;
  std::chrono::system_clock::time_point now_;
};

TEST_F(Route53ServiceTest, SeededZoneIsThereOnceWithItsApexRecords) {
  EXPECT_EQ(world_->List("route53.zone").size(), 1u);
  std::string zone = SeededZone();
  Route53Answer got = Call("GET", "/2013-04-01/hostedzone/" + zone);
  ASSERT_EQ(got.status, 200) << got.code << " " << got.message;
  EXPECT_NE(got.body.find("<Name>example.com.</Name>"), std::string::npos) << got.body;
  EXPECT_NE(got.body.find("<PrivateZone>false</PrivateZone>"), std::string::npos) << got.body;
  Route53Answer records = Call("GET", "/2013-04-01/hostedzone/" + zone + "/rrset");
  EXPECT_NE(records.body.find("<Type>NS</Type>"), std::string::npos) << records.body;
  EXPECT_NE(records.body.find("<Type>SOA</Type>"), std::string::npos) << records.body;
}

TEST_F(Route53ServiceTest, AnAliasToALoadBalancerOfTheWorldIsAcceptedAndToNothingRefused) {
  std::string zone = SeededZone();
  Route53Answer nowhere = Call("POST", "/2013-04-01/hostedzone/" + zone + "/rrset",
                               AliasBatch("app.example.com", "Z1H1FL5HABSF5", "web-1.us-west-2.elb.amazonaws.com"));
  EXPECT_EQ(nowhere.code, "InvalidChangeBatch");
  EXPECT_NE(nowhere.message.find("but that target was not found"), std::string::npos) << nowhere.message;

  // As the ELBv2 service keeps a load balancer.
  world_->Put("elbv2_load_balancer", "arn:aws:elasticloadbalancing:us-west-2:111122223333:loadbalancer/app/web/1",
              {{"DNSName", "web-1.us-west-2.elb.amazonaws.com"}, {"CanonicalHostedZoneId", "Z1H1FL5HABSF5"}});
  Route53Answer made = Call("POST", "/2013-04-01/hostedzone/" + zone + "/rrset",
                            AliasBatch("app.example.com", "Z1H1FL5HABSF5", "dualstack.web-1.us-west-2.elb.amazonaws.com."));
  ASSERT_EQ(made.status, 200) << made.code << " " << made.message;
  EXPECT_NE(made.body.find("<Status>PENDING</Status>"), std::string::npos) << made.body;
  Route53Answer refused = Call("DELETE", "/2013-04-01/hostedzone/" + zone);
  EXPECT_EQ(refused.code, "HostedZoneNotEmpty");

  // An alias to a record of a zone of the sandbox.
  Route53Answer inner = Call("POST", "/2013-04-01/hostedzone/" + zone + "/rrset",
                             AliasBatch("www.example.com", zone, "app.example.com"));
  EXPECT_EQ(inner.status, 200) << inner.code << " " << inner.message;
}

}  // namespace
}  // namespace strata::sandbox
