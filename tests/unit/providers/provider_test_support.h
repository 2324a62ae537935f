#pragma once
// Shared helpers for the builtin provider tests: a provider with a seeded random source and
// a fake clock (real files and processes, in a temp dir), and a ProposedNew-lite that merges
// config with prior computed attributes as the engine does.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "providers/builtin/builtin_provider.h"
#include "providers/builtin/resource_type.h"

namespace strata::testing {

inline Value S(const std::string& s) { return Value::String(s); }
inline Value N(double n) { return Value::Number(n); }
inline Value B(bool b) { return Value::Bool(b); }
inline Value Obj(ValueMap m) { return Value::Object(std::move(m)); }
inline Value Strs(std::vector<std::string> items) {
  ValueList list;
  for (auto& s : items) list.push_back(Value::String(s));
  return Value::List(std::move(list));
}
inline Value StrMap(std::map<std::string, std::string> m) {
  ValueMap out;
  for (auto& [k, v] : m) out[k] = Value::String(v);
  return Value::Map(std::move(out));
}
inline Value At(const Value& v, const std::string& name) { return attrs::Get(v, name); }

class ProviderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    random_ = std::make_shared<base::SeededRandom>(42);
    clock_ = std::make_shared<base::FakeClock>(std::chrono::system_clock::from_time_t(1700000000));
    BuiltinEnv env = BuiltinEnv::Real();
    env.random = random_;
    env.clock = clock_;
    provider_ = std::make_unique<BuiltinProvider>(env);
    dir_ = std::filesystem::temp_directory_path() /
           ("strata-prov-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  const ResourceSchema& SchemaOf(const std::string& type) {
    if (!schema_) schema_ = provider_->Schema();
    const ResourceSchema* s = schema_->Find(ResourceMode::Managed, type);
    EXPECT_NE(s, nullptr) << type;
    return *s;
  }

  //! The engine's ProposedNew, simplified to top-level attributes.
  Value Proposed(const std::string& type, const Value& prior, const Value& config) {
    if (config.IsNull()) return Value();
    ValueMap out = config.AsMap();
    for (const auto& [name, a] : SchemaOf(type).attributes) {
      Value c = At(config, name);
      if (a.computed && (!a.optional || c.IsNull())) out[name] = At(prior, name);
    }
    return Value::Object(out);
  }

  PlanResult Plan(const std::string& type, const Value& prior, const Value& config) {
    return provider_->PlanResourceChange(ctx_, type, prior, Proposed(type, prior, config), config);
  }

  //! Plans and creates; fails the test on error diagnostics.
  Value Create(const std::string& type, const Value& config) {
    PlanResult plan = Plan(type, Value(), config);
    EXPECT_FALSE(plan.diags.HasErrors()) << Messages(plan.diags);
    ApplyResult applied = provider_->CreateResource(ctx_, type, plan.planned);
    EXPECT_FALSE(applied.diags.HasErrors()) << Messages(applied.diags);
    return applied.state;
  }

  static std::string Messages(const Diagnostics& diags) {
    std::string out;
    for (const auto& d : diags) out += d.summary + ": " + d.detail + "\n";
    return out;
  }

  static bool Replaces(const PlanResult& plan, const std::string& attr) {
    for (const auto& p : plan.requires_replace) {
      if (p.ToString() == attr) return true;
    }
    return false;
  }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string ReadText(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  std::shared_ptr<base::SeededRandom> random_;
  std::shared_ptr<base::FakeClock> clock_;
  std::unique_ptr<BuiltinProvider> provider_;
  OperationContext ctx_;
  std::filesystem::path dir_;
  std::optional<ProviderSchema> schema_;
};

}  // namespace strata::testing
