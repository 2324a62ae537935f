#pragma once
// What the aws provider's moto suites share: one moto_server per suite (a loud skip when
// it is missing), an AwsProvider configured against it through `endpoints` only, value
// helpers, and plan-then-apply helpers.

#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "engine/value/format.h"
#include "moto_server.h"
#include "providers/aws/provider/aws_provider.h"

namespace strata::aws::mototest {

// moto's fixed account for any credentials.
inline constexpr const char* kAccount = "123456789012";

inline Value S(const std::string& s) { return Value::String(s); }
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

class MotoProviderTest : public ::testing::Test {
 protected:
  //! `what` names the suite in the skip banner; `services` get moto's URL as endpoints.
  MotoProviderTest(std::string what, std::vector<std::string> services, std::string region)
      : what_(std::move(what)), services_(std::move(services)), region_(std::move(region)) {}

  static void SetUpTestSuite() {
    moto_ = new testing::MotoServer();
    if (!moto_->Start()) {
      error_ = moto_->error();
      delete moto_;
      moto_ = nullptr;
    }
  }
  static void TearDownTestSuite() {
    delete moto_;
    moto_ = nullptr;
  }

  void SetUp() override {
    if (!moto_) {
      std::cerr << "\n**********************************************************************\n"
                << "*** SKIPPING aws " << what_ << " tests: moto is not available: " << error_ << "\n"
                << "*** Install moto[server] (pip install 'moto[server]') to run them.\n"
                << "**********************************************************************\n";
      GTEST_SKIP() << "moto_server unavailable: " << error_;
    }
    Diagnostics diags = provider_.Configure(ctx_, Settings());
    ASSERT_FALSE(diags.HasErrors()) << Text(diags);
  }

  Value Settings() const {
    ValueMap endpoints;
    for (const std::string& service : services_) endpoints[service] = S(moto_->url());
    return Value::Object({{"region", S(region_)},
                          {"endpoints", Value::Map(endpoints)},
                          {"access_key", S("testing")},
                          {"secret_key", S("testing")},
                          {"max_retries", Value::Number(1)},
                          {"default_tags", Tags({{"Owner", "strata-tests"}})}});
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

  static inline testing::MotoServer* moto_ = nullptr;
  static inline std::string error_;
  OperationContext ctx_;
  AwsProvider provider_;

 private:
  std::string what_;
  std::vector<std::string> services_;
  std::string region_;
};

}  // namespace strata::aws::mototest
