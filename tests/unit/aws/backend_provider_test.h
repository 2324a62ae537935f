#pragma once
// The aws provider's CRUD suites run against two emulators: Strata's own sandbox (in
// process, on 127.0.0.1) and moto (moto_server, an emulator nobody here wrote), so that a
// misunderstanding shared by our provider and our sandbox cannot hide. The provider
// reaches either only through its `endpoints` setting. A suite is a TEST_P on a subclass
// of BackendProviderTest, instantiated with STRATA_AWS_BACKENDS(Suite). Without moto its
// cases skip loudly; the sandbox cases always run.

#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/value/format.h"
#include "moto_server.h"
#include "providers/aws/credentials/environment.h"
#include "providers/aws/aws_provider.h"
#include "providers/aws/common/aws_settings.h"
#include "sandbox/sandbox.h"

namespace strata::aws::backendtest {

enum class Backend { Sandbox, Moto };

inline Value S(const std::string& s) { return Value::String(s); }
inline Value N(double n) { return Value::Number(n); }
inline Value L(std::vector<std::string> items) {
  ValueList values;
  for (auto& s : items) values.push_back(S(s));
  return Value::List(std::move(values));
}
inline Value Obj(ValueMap m) { return Value::Object(std::move(m)); }
inline Value Tags(std::map<std::string, std::string> tags) {
  ValueMap m;
  for (auto& [k, v] : tags) m[k] = S(v);
  return Value::Map(std::move(m));
}
inline Value Attr(const Value& v, const std::string& name) {
  if (!v.IsMapping()) return Value();
  auto it = v.AsMap().find(name);
  return it == v.AsMap().end() ? Value() : it->second;
}
inline std::string Str(const Value& v, const std::string& name) {
  Value a = Attr(v, name);
  return a.IsString() ? a.AsString() : "<" + FormatValue(a) + ">";
}
inline std::string Text(const Diagnostics& diags) {
  std::string out;
  for (const Diagnostic& d : diags) out += d.summary + ": " + d.detail + "\n";
  return out;
}

//! The sandbox's settings in these suites: lifecycles short enough for unit tests.
inline sandbox::SandboxSettings TestSandboxSettings() {
  sandbox::SandboxSettings s;
  s.cluster_delay = sandbox::Millis(300);
  s.nodegroup_delay = sandbox::Millis(200);
  s.addon_delay = sandbox::Millis(100);
  s.nat_gateway_delay = sandbox::Millis(100);
  s.route53_change_delay = sandbox::Millis(200);
  s.efs_delay = sandbox::Millis(100);
  s.fsx_delay = sandbox::Millis(200);
  return s;
}

class BackendProviderTest : public ::testing::TestWithParam<Backend> {
 protected:
  //! `what` names the suite in the skip banner; `services` get the backend's URL as endpoints.
  BackendProviderTest(std::string what, std::vector<std::string> services, std::string region)
      : what_(std::move(what)), services_(std::move(services)), region_(std::move(region)) {}

  static void SetUpTestSuite() {
    sandbox_ = new sandbox::Sandbox(TestSandboxSettings());
    if (!sandbox_->Start(sandbox_error_)) {
      delete sandbox_;
      sandbox_ = nullptr;
    }
    moto_ = new testing::MotoServer();
    if (!moto_->Start()) {
      moto_error_ = moto_->error();
      delete moto_;
      moto_ = nullptr;
    }
  }
  static void TearDownTestSuite() {
    delete moto_;
    moto_ = nullptr;
    delete sandbox_;
    sandbox_ = nullptr;
  }

  void SetUp() override {
    if (IsMoto() && !moto_) {
      std::cerr << "\n**********************************************************************\n"
                << "*** SKIPPING aws " << what_ << " tests on moto: moto is not available: " << moto_error_ << "\n"
                << "*** Install moto[server] (pip install 'moto[server]') to run them.\n"
                << "**********************************************************************\n";
      GTEST_SKIP() << "moto_server unavailable: " << moto_error_;
    }
    ASSERT_TRUE(IsMoto() || sandbox_) << "the sandbox did not start: " << sandbox_error_;
    Diagnostics diags = provider_.Configure(ctx_, Settings());
    ASSERT_FALSE(diags.HasErrors()) << Text(diags);
  }

  bool IsMoto() const { return GetParam() == Backend::Moto; }
  //! "1", "2", ...: a fresh suffix for the names a case makes, so that cases sharing a
  //! backend never meet.
  static std::string UniqueSuffix() {
    static int n = 0;
    return std::to_string(++n);
  }
  std::string Url() const { return IsMoto() ? moto_->url() : sandbox_->url(); }
  //! The account every object belongs to: moto's fixed one, or the sandbox's.
  std::string Account() const { return IsMoto() ? "123456789012" : sandbox_->settings().account_id; }

  Value Settings() const {
    ValueMap endpoints;
    for (const std::string& service : services_) endpoints[service] = S(Url());
    // moto accepts any keys; the sandbox verifies signatures with its own pair.
    sandbox::SandboxSettings keys;
    return Value::Object({{"region", S(region_)},
                          {"endpoints", Value::Map(endpoints)},
                          {"access_key", S(keys.access_key)},
                          {"secret_key", S(keys.secret_key)},
                          {"max_retries", Value::Number(1)},
                          {"default_tags", Tags({{"Owner", "strata-tests"}})}});
  }

  //! A signed call straight to the backend, to change things behind the provider's back or
  //! to probe what the emulator implements. `path` may carry a query.
  struct RawAnswer {
    int status = 0;        //!< 0: no answer at all
    std::string body;      //!< the body of a success
    std::string error;     //!< the AWS error code of a failure
  };
  RawAnswer Raw(const std::string& service, const std::string& method, const std::string& path,
                const std::string& body = "", const std::string& content_type = "",
                const std::string& target = "") const {
    AwsSettings settings;
    settings.region = region_;
    settings.endpoints = {{service, Url()}};
    sandbox::SandboxSettings keys;
    settings.access_key = keys.access_key;
    settings.secret_key = keys.secret_key;
    settings.max_retries = 0;
    auto client = MakeAwsClient(settings, std::make_shared<SystemEnvironment>(), nullptr);
    HttpRequest request;
    request.method = method;
    request.url = path;
    request.body = body;
    if (!content_type.empty()) request.headers.emplace_back("Content-Type", content_type);
    if (!target.empty()) request.headers.emplace_back("X-Amz-Target", target);
    Result<HttpResponse> response = client->Send(service, request);
    if (response.ok()) return {response->status, response->body, ""};
    return {response.error().http_status, "", response.error().code};
  }
  //! A query-protocol call (IAM, EC2) straight to the backend.
  RawAnswer RawQuery(const std::string& service, const std::string& version, const std::string& params) const {
    return Raw(service, "POST", "/", "Version=" + version + "&" + params,
               "application/x-www-form-urlencoded; charset=utf-8");
  }

  //! An awsJson call (SQS, SSM, EventBridge) straight to the backend: `target` is
  //! "<prefix>.<Action>", `body` the JSON text.
  RawAnswer RawJson(const std::string& service, const std::string& target, const std::string& body,
                    const std::string& json_version = "1.1") const {
    return Raw(service, "POST", "/", body, "application/x-amz-json-" + json_version, target);
  }

  PlanResult PlanCreate(const std::string& type, const Value& config) {
    PlanResult plan = provider_.PlanResourceChange(ctx_, type, Value(), config, config);
    EXPECT_FALSE(plan.diags.HasErrors()) << Text(plan.diags);
    return plan;
  }
  //! Plans a create from `config` and applies it.
  ApplyResult Create(const std::string& type, const Value& config) {
    return provider_.CreateResource(ctx_, type, PlanCreate(type, config).planned);
  }
  //! The plan from `prior` to `config` (prior's computed attributes carried over).
  PlanResult PlanUpdate(const std::string& type, const Value& prior, const Value& config) {
    ValueMap proposed = prior.AsMap();
    for (const auto& [k, v] : config.AsMap()) proposed[k] = v;
    return provider_.PlanResourceChange(ctx_, type, prior, Value::Object(proposed), config);
  }
  //! Plans an update from `prior` to `config` and applies it in place.
  ApplyResult Update(const std::string& type, const Value& prior, const Value& config) {
    PlanResult plan = PlanUpdate(type, prior, config);
    EXPECT_TRUE(plan.requires_replace.empty());
    return provider_.UpdateResource(ctx_, type, prior, plan.planned);
  }

  Value MustCreate(const std::string& type, const Value& config) {
    ApplyResult r = Create(type, config);
    EXPECT_FALSE(r.diags.HasErrors()) << type << ": " << Text(r.diags);
    return r.state;
  }
  void MustDelete(const std::string& type, const Value& state) {
    DeleteResult r = provider_.DeleteResource(ctx_, type, state);
    EXPECT_FALSE(r.diags.HasErrors()) << type << ": " << Text(r.diags);
  }
  //! Reads `state` back and expects it unchanged (no drift, so no plan diff).
  void ExpectReadsBack(const std::string& type, const Value& state) {
    ReadResult read = provider_.ReadResource(ctx_, type, state);
    ASSERT_FALSE(read.diags.HasErrors()) << Text(read.diags);
    EXPECT_FALSE(read.gone);
    EXPECT_EQ(read.state, state) << type << "\nread:  " << FormatValue(read.state) << "\nstate: " << FormatValue(state);
  }
  //! `state` reads back unchanged and a plan from `config` (what made it) changes nothing.
  void ExpectNoChange(const std::string& type, const Value& state, const Value& config) {
    ExpectReadsBack(type, state);
    PlanResult same = PlanUpdate(type, state, config);
    EXPECT_FALSE(same.diags.HasErrors()) << Text(same.diags);
    EXPECT_TRUE(same.requires_replace.empty()) << type << " would be replaced";
    EXPECT_EQ(same.planned, state) << type << "\nplanned: " << FormatValue(same.planned) << "\nstate:   " << FormatValue(state);
  }
  //! The plan from `prior` to `config`, which must be an in-place update, applied.
  Value UpdateInPlace(const std::string& type, const Value& prior, const Value& config) {
    PlanResult plan = PlanUpdate(type, prior, config);
    EXPECT_FALSE(plan.diags.HasErrors()) << Text(plan.diags);
    EXPECT_TRUE(plan.requires_replace.empty()) << type << " would be replaced";
    ApplyResult r = provider_.UpdateResource(ctx_, type, prior, plan.planned);
    EXPECT_FALSE(r.diags.HasErrors()) << type << ": " << Text(r.diags);
    return r.state;
  }

  //! What an EKS cluster and its node groups need: a role for each, and a VPC with two
  //! subnets in two zones of the region. Role names are `prefix` + "cluster"/"node".
  struct EksNeeds {
    Value cluster_role, node_role, vpc;
    std::vector<Value> subnets;
  };
  EksNeeds MakeEksNeeds(const std::string& prefix) {
    const char* eks_trust = R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow",)"
                            R"("Principal":{"Service":"eks.amazonaws.com"},"Action":"sts:AssumeRole"}]})";
    const char* node_trust = R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow",)"
                             R"("Principal":{"Service":"ec2.amazonaws.com"},"Action":"sts:AssumeRole"}]})";
    EksNeeds needs;
    needs.cluster_role = MustCreate("aws_iam_role", Obj({{"name", S(prefix + "cluster")}, {"assume_role_policy", S(eks_trust)}}));
    needs.node_role = MustCreate("aws_iam_role", Obj({{"name", S(prefix + "node")}, {"assume_role_policy", S(node_trust)}}));
    needs.vpc = MustCreate("aws_vpc", Obj({{"cidr_block", S("10.0.0.0/16")}}));
    for (int i = 0; i < 2; ++i) {
      needs.subnets.push_back(MustCreate("aws_subnet", Obj({{"vpc_id", Attr(needs.vpc, "id")},
                                                           {"cidr_block", S("10.0." + std::to_string(i) + ".0/24")},
                                                           {"availability_zone", S(region_ + (i ? "b" : "a"))}})));
    }
    return needs;
  }

  static inline testing::MotoServer* moto_ = nullptr;
  static inline std::string moto_error_;
  static inline sandbox::Sandbox* sandbox_ = nullptr;
  static inline std::string sandbox_error_;
  OperationContext ctx_;
  AwsProvider provider_;

 private:
  std::string what_;
  std::vector<std::string> services_;
  std::string region_;
};

inline std::string BackendName(const ::testing::TestParamInfo<Backend>& info) {
  return info.param == Backend::Moto ? "Moto" : "Sandbox";
}

}  // namespace strata::aws::backendtest

//! Runs every TEST_P of `Suite` against the sandbox and against moto.
#define STRATA_AWS_BACKENDS(Suite)                                                          \
  INSTANTIATE_TEST_SUITE_P(Backends, Suite,                                                 \
                           ::testing::Values(::strata::aws::backendtest::Backend::Sandbox,  \
                                             ::strata::aws::backendtest::Backend::Moto),    \
                           ::strata::aws::backendtest::BackendName)
