// time_static (hashicorp/time): a timestamp taken once, at create — the clock's time in
// UTC, or `rfc3339` when given — published as `rfc3339`, `id` (the same text in Go's RFC
// 3339 format), `unix` and its calendar fields (year, month, day, hour, minute, second, in
// the timestamp's own offset). A change of rfc3339 or triggers replaces it.
// Import: an RFC 3339 timestamp (Terraform's format).
#include "providers/builtin/resource_type.h"
#include "providers/builtin/zoned_time.h"

namespace strata {
namespace {

using namespace attrs;
using builtin::ZonedTime;

class TimeStatic : public BuiltinResourceType {
 public:
  using BuiltinResourceType::BuiltinResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("time_static", builtin::WithTimeFieldAttributes({{"rfc3339", OptionalComputed("string", true)},
                                                                          {"triggers", Optional("map(string)", true)}}));
  }

  Diagnostics Validate(const Value& config) const override {
    Value text = Get(config, "rfc3339");
    if (text.IsString() && text.IsWhollyKnown() && !builtin::ParseZonedRfc3339(text.AsString())) {
      return Error("Invalid rfc3339", "\"" + text.AsString() + "\" is not an RFC 3339 timestamp: write it like "
                                      "\"2024-03-01T09:00:00Z\" or \"2024-03-01T09:00:00+02:00\".");
    }
    return {};
  }

  CreateRecovery Recovery() const override { return CreateRecovery::StateOnly; }

  ApplyResult Create(const OperationContext&, const Value& planned) override {
    Value given = Get(planned, "rfc3339");
    if (given.IsString()) {
      auto t = builtin::ParseZonedRfc3339(given.AsString());
      if (!t) return {{}, Validate(planned)};
      return {State(planned, *t), {}};
    }
    return {State(planned, ZonedTime::Utc(env_.clock->Now())), {}};
  }

  ApplyResult Import(const OperationContext&, const std::string& id) override {
    auto t = builtin::ParseZonedRfc3339(id);
    if (!t) {
      return {{}, Error("Invalid import id", "\"" + id + "\" is not an RFC 3339 timestamp (\"2024-03-01T09:00:00Z\").")};
    }
    return {State(Value::Object({}), *t), {}};
  }

 private:
  //! The user's own text stays in `rfc3339` (so the configuration still matches it); `id`
  //! is Go's formatting of the same instant.
  Value State(Value v, const ZonedTime& t) const {
    std::string text = builtin::FormatZonedRfc3339(t);
    if (!Get(v, "rfc3339").IsString()) v = With(v, "rfc3339", Value::String(text));
    v = With(v, "id", Value::String(text));
    return Normalize(CachedSchema(), builtin::WithTimeFields(v, t));
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewTimeStatic(BuiltinEnv env) {
  return std::make_unique<TimeStatic>(std::move(env));
}

}  // namespace strata
