// time_sleep (hashicorp/time): waits `create_duration` after creating and
// `destroy_duration` before destroying (Go durations: "30s", "1m30s"); changing a duration
// updates in place without waiting, changing `triggers` replaces. The id is the creation
// time in RFC 3339 (UTC). Waits honour cancellation and the deadline and report progress.
// Import: "CREATE_DURATION,DESTROY_DURATION" (either may be empty).
#include <ctime>

#include "engine/base/time_format.h"
#include "engine/base/duration.h"
#include "providers/builtin/resource_type.h"
#include "providers/builtin/sleep.h"

namespace strata {
namespace {

using namespace attrs;
using builtin::SleepWithProgress;

class TimeSleep : public BuiltinResourceType {
 public:
  using BuiltinResourceType::BuiltinResourceType;

  //! How often a long sleep reports progress.
  static constexpr std::chrono::seconds kProgressEvery{10};

  ResourceSchema Schema() const override {
    return ManagedSchema("time_sleep", {{"create_duration", Optional("string")},
                                        {"destroy_duration", Optional("string")},
                                        {"triggers", Optional("map(string)", true)}});
  }

  Diagnostics Validate(const Value& config) const override {
    Diagnostics diags;
    for (const char* a : {"create_duration", "destroy_duration"}) {
      Value v = Get(config, a);
      if (v.IsString() && !base::ParseDuration(v.AsString())) {
        diags.Error("Invalid " + std::string(a),
                    "\"" + v.AsString() + "\" is not a duration: use a number and a unit, "
                    "like \"30s\", \"5m\" or \"1h30m\".");
      }
    }
    if (Get(config, "create_duration").IsNull() && Get(config, "destroy_duration").IsNull()) {
      diags.Error("Missing duration", "Set create_duration, destroy_duration or both.");
    }
    return diags;
  }

  CreateRecovery Recovery() const override { return CreateRecovery::StateOnly; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    Diagnostics diags = Wait(ctx, GetString(planned, "create_duration"), "creating");
    if (diags.HasErrors()) return {{}, diags};
    return {Normalize(CachedSchema(), With(planned, "id", Value::String(base::FormatRfc3339(env_.clock->Now())))), {}};
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    return {Wait(ctx, GetString(prior, "destroy_duration"), "destroying")};
  }

  ApplyResult Import(const OperationContext&, const std::string& id) override {
    size_t comma = id.find(',');
    if (comma == std::string::npos) {
      return {{}, Error("Invalid import id",
                        "Use \"CREATE_DURATION,DESTROY_DURATION\", either may be empty.")};
    }
    Value v = Value::Object({{"id", Value::String(base::FormatRfc3339(env_.clock->Now()))}});
    if (comma > 0) v = With(v, "create_duration", Value::String(id.substr(0, comma)));
    if (comma + 1 < id.size()) v = With(v, "destroy_duration", Value::String(id.substr(comma + 1)));
    Diagnostics diags = Validate(v);
    if (diags.HasErrors()) return {{}, diags};
    return {Normalize(CachedSchema(), v), {}};
  }

 private:
  Diagnostics Wait(const OperationContext& ctx, const std::string& text, const char* verb) {
    if (text.empty()) return {};
    auto d = base::ParseDuration(text);
    if (!d) return Error("Invalid duration", "\"" + text + "\" is not a duration.");
    ctx.Log(LogLevel::Debug, std::string(verb) + ": sleeping " + text);
    bool done = SleepWithProgress(*env_.clock, ctx, *d, kProgressEvery, [&](base::Clock::Duration elapsed) {
      ctx.Progress(std::string("still ") + verb + "... (" + base::FormatDuration(elapsed) +
                   " of " + text + " elapsed)");
    });
    if (done) return {};
    if (ctx.Cancelled()) {
      return Error("Sleep interrupted", "The operation was cancelled while waiting " + text + ".");
    }
    return Error("Sleep timed out", "The deadline passed while waiting " + text + ".");
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewTimeSleep(BuiltinEnv env) {
  return std::make_unique<TimeSleep>(std::move(env));
}

}  // namespace strata
