// time_rotating (hashicorp/time): a base timestamp (`rfc3339`: the clock's time in UTC at
// create, or given) and a rotation time after it — rotation_minutes/hours/days/months/years
// later, or `rotation_rfc3339` given — published as `rotation_rfc3339`, `unix` and the
// rotation's calendar fields; `id` is the base. Once the clock passes the rotation time the
// refresh finds the object gone, so the plan creates a new one (what Terraform's Read does
// by removing it from state); without a refresh the plan replaces it (Terraform's
// ReplaceIfOutdated). Changing a rotation_* argument updates the rotation time in place from
// the same base; rfc3339 and triggers replace. Import: "BASE,ROTATION" (two RFC 3339
// timestamps) or "BASE,YEARS,MONTHS,DAYS,HOURS,MINUTES" (empty for unset), as Terraform's.
#include <charconv>

#include "providers/builtin/resource_type.h"
#include "providers/builtin/zoned_time.h"

namespace strata {
namespace {

using namespace attrs;
using builtin::ZonedTime;

//! The rotation_* arguments in hashicorp/time's order of precedence (a later one set wins;
//! rotation_rfc3339, when given, sits between months and years).
constexpr const char* kPeriods[] = {"rotation_days", "rotation_hours", "rotation_minutes", "rotation_months",
                                    "rotation_years"};

class TimeRotating : public BuiltinResourceType {
 public:
  using BuiltinResourceType::BuiltinResourceType;

  ResourceSchema Schema() const override {
    std::map<std::string, AttributeSchema> a = {{"rfc3339", OptionalComputed("string", true)},
                                                {"rotation_rfc3339", OptionalComputed("string")},
                                                {"triggers", Optional("map(string)", true)}};
    for (const char* p : kPeriods) a[p] = Optional("number");
    return ManagedSchema("time_rotating", builtin::WithTimeFieldAttributes(std::move(a)));
  }

  Diagnostics Validate(const Value& config) const override {
    Diagnostics diags;
    bool any = false;
    for (const char* p : kPeriods) {
      Value v = Get(config, p);
      any = any || !v.IsNull();
      auto n = GetNumber(config, p);
      if (n && (*n < 1 || *n != double(int64_t(*n)))) {
        diags.Error("Invalid " + std::string(p), std::string(p) + " must be a whole number of at least 1.");
      }
    }
    for (const char* t : {"rfc3339", "rotation_rfc3339"}) {
      Value v = Get(config, t);
      any = any || (std::string(t) == "rotation_rfc3339" && !v.IsNull());
      if (v.IsString() && v.IsWhollyKnown() && !builtin::ParseZonedRfc3339(v.AsString())) {
        diags.Error("Invalid " + std::string(t), "\"" + v.AsString() + "\" is not an RFC 3339 timestamp: write it "
                                                 "like \"2024-03-01T09:00:00Z\" or \"2024-03-01T09:00:00+02:00\".");
      }
    }
    if (!any) {
      diags.Error("Missing rotation", "Set at least one of rotation_minutes, rotation_hours, rotation_days, "
                                      "rotation_months, rotation_years and rotation_rfc3339.");
    }
    return diags;
  }

  CreateRecovery Recovery() const override { return CreateRecovery::StateOnly; }

  PlanResult Plan(const OperationContext& ctx, const Value& prior, const Value& proposed,
                  const Value& config) const override {
    PlanResult result = ResourceType::Plan(ctx, prior, proposed, config);
    if (prior.IsNull() || proposed.IsNull() || result.diags.HasErrors() || !result.requires_replace.empty()) {
      return result;
    }
    if (Outdated(prior)) {
      PlanResult replace = ResourceType::Plan(ctx, Value(), proposed, config);
      replace.requires_replace = {AttrPath::Of("rotation_rfc3339"), AttrPath::Of("rfc3339")};
      return replace;
    }
    bool given = !Get(config.IsNull() ? proposed : config, "rotation_rfc3339").IsNull();
    if (!RotationChanged(prior, result.planned, given)) return result;
    auto base = builtin::ParseZonedRfc3339(GetString(prior, "rfc3339"));
    if (!base || !Get(result.planned, "rotation_rfc3339").IsWhollyKnown()) {
      result.planned = With(result.planned, "rotation_rfc3339", Value::Unknown());
      return result;
    }
    result.planned = Normalize(CachedSchema(), Rotate(result.planned, *base, given));
    return result;
  }

  ApplyResult Create(const OperationContext&, const Value& planned) override {
    ZonedTime base = ZonedTime::Utc(env_.clock->Now());
    if (Value given = Get(planned, "rfc3339"); given.IsString()) {
      auto t = builtin::ParseZonedRfc3339(given.AsString());
      if (!t) return {{}, Validate(planned)};
      base = *t;
    }
    Value v = Get(planned, "rfc3339").IsString() ? planned : With(planned, "rfc3339", Value::String(builtin::FormatZonedRfc3339(base)));
    return {Normalize(CachedSchema(), Rotate(v, base, Get(planned, "rotation_rfc3339").IsString())), {}};
  }

  ReadResult Read(const OperationContext&, const Value& prior) override {
    ReadResult read;
    if (Outdated(prior)) read.gone = true;
    else read.state = prior;
    return read;
  }

  ApplyResult Update(const OperationContext&, const Value& prior, const Value& planned) override {
    (void)prior;  // the plan computed the new rotation from the same base
    return {planned, {}};
  }

  ApplyResult Import(const OperationContext&, const std::string& id) override {
    std::vector<std::string> parts = SplitImportId(id);
    const std::string usage = "Use \"BASE,ROTATION\" (two RFC 3339 timestamps) or "
                              "\"BASE,YEARS,MONTHS,DAYS,HOURS,MINUTES\" with at least one period set.";
    if (parts.size() != 2 && parts.size() != 6) return {{}, Error("Invalid import id", usage)};
    auto base = builtin::ParseZonedRfc3339(parts[0]);
    if (!base) return {{}, Error("Invalid import id", "\"" + parts[0] + "\" is not an RFC 3339 timestamp. " + usage)};
    Value v = Value::Object({{"rfc3339", Value::String(parts[0])}});
    if (parts.size() == 2) {
      if (!builtin::ParseZonedRfc3339(parts[1])) {
        return {{}, Error("Invalid import id", "\"" + parts[1] + "\" is not an RFC 3339 timestamp. " + usage)};
      }
      v = With(v, "rotation_rfc3339", Value::String(parts[1]));
    } else {
      // The id's order: years, months, days, hours, minutes.
      const char* order[] = {"rotation_years", "rotation_months", "rotation_days", "rotation_hours",
                             "rotation_minutes"};
      bool any = false;
      for (size_t i = 0; i < 5; ++i) {
        const std::string& text = parts[i + 1];
        if (text.empty()) continue;
        int64_t n = 0;
        auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
        if (ec != std::errc() || ptr != text.data() + text.size() || n < 1) {
          return {{}, Error("Invalid import id", std::string(order[i]) + " \"" + text + "\" is not a whole number of at least 1. " + usage)};
        }
        v = With(v, order[i], Value::Number(double(n)));
        any = true;
      }
      if (!any) return {{}, Error("Invalid import id", usage)};
    }
    return {Normalize(CachedSchema(), Rotate(v, *base, parts.size() == 2)), {}};
  }

 private:
  //! True when the clock has passed the recorded rotation time.
  bool Outdated(const Value& state) const {
    auto rotation = builtin::ParseZonedRfc3339(GetString(state, "rotation_rfc3339"));
    return rotation && env_.clock->Now() > rotation->instant;
  }

  static bool RotationChanged(const Value& prior, const Value& planned, bool rfc3339_given) {
    for (const char* p : kPeriods) {
      if (!Get(prior, p).Equals(Get(planned, p))) return true;
    }
    return rfc3339_given && !Get(prior, "rotation_rfc3339").Equals(Get(planned, "rotation_rfc3339"));
  }

  //! hashicorp/time's setRotationValues: the rotation time from `base` and the arguments,
  //! its calendar fields and unix time, and the base as id. `rfc3339_given`: the user set
  //! rotation_rfc3339 (otherwise the value in `v` is a computed one, unknown in
  //! Terraform's plan, which a changed argument recomputes).
  static Value Rotate(Value v, const ZonedTime& base, bool rfc3339_given) {
    ZonedTime rotation = base;
    auto period = [&](const char* name) { return int64_t(GetNumber(v, name).value_or(0)); };
    if (int64_t n = period("rotation_days")) rotation = builtin::AddDate(base, 0, 0, n);
    if (int64_t n = period("rotation_hours")) rotation = {base.instant + std::chrono::hours{n}, base.offset_minutes};
    if (int64_t n = period("rotation_minutes")) rotation = {base.instant + std::chrono::minutes{n}, base.offset_minutes};
    if (int64_t n = period("rotation_months")) rotation = builtin::AddDate(base, 0, n, 0);
    if (rfc3339_given) {
      if (auto t = builtin::ParseZonedRfc3339(GetString(v, "rotation_rfc3339"))) rotation = *t;
    }
    if (int64_t n = period("rotation_years")) rotation = builtin::AddDate(base, n, 0, 0);
    if (!rfc3339_given || period("rotation_years")) {
      v = With(v, "rotation_rfc3339", Value::String(builtin::FormatZonedRfc3339(rotation)));
    }
    v = With(v, "id", Value::String(builtin::FormatZonedRfc3339(base)));
    return builtin::WithTimeFields(v, rotation);
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewTimeRotating(BuiltinEnv env) {
  return std::make_unique<TimeRotating>(std::move(env));
}

}  // namespace strata
