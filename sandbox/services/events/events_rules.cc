#include "sandbox/services/events/events_rules.h"

#include <cctype>
#include <sstream>

namespace strata::sandbox::events {
namespace {

ApiError EventsValidationError(const std::string& message) {
  return ApiError(400, "ValidationException", message);
}

ApiError InvalidEventPattern(const std::string& reason) {
  return ApiError(400, "InvalidEventPatternException",
                  "Event pattern is not valid. Reason: " + reason);
}

std::string RuleKey(const std::string& region, const std::string& bus, const std::string& name) {
  return region + "/" + bus + "/" + name;
}

//! Every field of a pattern object: an object (a nested pattern) or a non-empty array of
//! values to match.
void CheckPatternObject(const Json& object, const std::string& where) {
  if (object.empty()) throw InvalidEventPattern("Empty objects are not allowed" + where);
  for (const auto& [key, value] : object.items()) {
    if (value.is_object()) {
      CheckPatternObject(value, " at \"" + key + "\"");
    } else if (!value.is_array()) {
      throw InvalidEventPattern("Match value must be String, number, true, false, or null at \"" +
                                key + "\"");
    } else if (value.empty()) {
      throw InvalidEventPattern("Empty arrays are not allowed at \"" + key + "\"");
    }
  }
}

bool IsRate(const std::string& body) {
  std::istringstream in(body);
  long long n = 0;
  std::string unit, rest;
  if (!(in >> n) || !(in >> unit) || (in >> rest) || n < 1) return false;
  if (n == 1) return unit == "minute" || unit == "hour" || unit == "day";
  return unit == "minutes" || unit == "hours" || unit == "days";
}

bool IsCron(const std::string& body) {
  std::istringstream in(body);
  std::string field;
  int fields = 0;
  while (in >> field) ++fields;
  return fields == 6;
}

}  // namespace

std::string BusOf(const Json& input) {
  auto it = input.find("EventBusName");
  if (it == input.end() || it->is_null()) return kDefaultBus;
  std::string bus = it->is_string() ? it->get<std::string>() : "";
  std::string name = bus.rfind("arn:", 0) == 0 ? bus.substr(bus.rfind('/') + 1) : bus;
  if (name != kDefaultBus)
    throw ApiError(400, "ResourceNotFoundException", "Event bus " + bus + " does not exist.");
  return name;
}

std::string RuleArn(const ServiceContext& ctx, const std::string& bus, const std::string& name) {
  return "arn:aws:events:" + RegionOf(ctx) + ":" + ctx.settings.account_id + ":rule/" +
         (bus == kDefaultBus ? "" : bus + "/") + name;
}

std::optional<Json> FindRule(ServiceContext& ctx, const std::string& bus, const std::string& name) {
  return ctx.world.Get(kRuleKind, RuleKey(RegionOf(ctx), bus, name));
}

Json RequireRule(ServiceContext& ctx, const std::string& bus, const std::string& name) {
  std::optional<Json> rule = FindRule(ctx, bus, name);
  if (!rule) {
    throw ApiError(400, "ResourceNotFoundException",
                   "Rule " + name + " does not exist on EventBus " + bus + ".");
  }
  return *rule;
}

Json RequireRuleByArn(ServiceContext& ctx, const std::string& arn) {
  std::string prefix = "arn:aws:events:" + RegionOf(ctx) + ":" + ctx.settings.account_id + ":rule/";
  if (arn.rfind(prefix, 0) != 0) {
    throw ApiError(400, "ResourceNotFoundException", "Resource " + arn + " does not exist.");
  }
  std::string path = arn.substr(prefix.size());
  size_t slash = path.find('/');
  std::string bus = slash == std::string::npos ? kDefaultBus : path.substr(0, slash);
  return RequireRule(ctx, bus, slash == std::string::npos ? path : path.substr(slash + 1));
}

void SaveRule(ServiceContext& ctx, const Json& rule) {
  ctx.world.Put(kRuleKind, RuleKey(rule.at("region"), rule.at("bus"), rule.at("name")), rule);
}

void EraseRule(ServiceContext& ctx, const Json& rule) {
  ctx.world.Erase(kRuleKind, RuleKey(rule.at("region"), rule.at("bus"), rule.at("name")));
}

std::vector<Json> RulesOf(ServiceContext& ctx, const std::string& bus) {
  std::vector<Json> rules;
  for (auto& [key, rule] : ctx.world.ListPrefix(kRuleKind, RegionOf(ctx) + "/" + bus + "/"))
    rules.push_back(rule);
  return rules;
}

void CheckEventsName(const std::string& value, const std::string& member) {
  bool ok = !value.empty() && value.size() <= 64;
  for (char c : value)
    ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_');
  if (!ok) {
    throw EventsValidationError(
        "1 validation error detected: Value '" + value + "' at '" + member +
        "' failed to satisfy constraint: Member must satisfy regular expression "
        "pattern: [\\.\\-_A-Za-z0-9]+ and have length less than or equal to 64");
  }
}

void CheckEventPattern(const std::string& pattern) {
  Json doc = Json::parse(pattern, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) throw InvalidEventPattern("The pattern is not valid JSON.");
  if (!doc.is_object()) throw InvalidEventPattern("Filter is not an object");
  CheckPatternObject(doc, "");
}

void CheckScheduleExpression(const std::string& expression) {
  auto body_of = [&](const std::string& head) -> std::optional<std::string> {
    if (expression.size() < head.size() + 2 ||
        expression.compare(0, head.size() + 1, head + "(") != 0 || expression.back() != ')') {
      return std::nullopt;
    }
    return expression.substr(head.size() + 1, expression.size() - head.size() - 2);
  };
  std::optional<std::string> rate = body_of("rate"), cron = body_of("cron");
  if ((rate && IsRate(*rate)) || (cron && IsCron(*cron))) return;
  throw EventsValidationError("Parameter ScheduleExpression is not valid.");
}

Json RuleAnswer(const ServiceContext& ctx, const Json& rule) {
  std::string bus = rule.at("bus"), name = rule.at("name");
  Json out = {{"Name", name},
              {"Arn", RuleArn(ctx, bus, name)},
              {"State", rule.at("state")},
              {"EventBusName", bus}};
  for (const auto& [member, key] :
       {std::pair{"EventPattern", "pattern"}, std::pair{"ScheduleExpression", "schedule"},
        std::pair{"Description", "description"}, std::pair{"RoleArn", "role_arn"}}) {
    std::string value = rule.value(key, "");
    if (!value.empty()) out[member] = value;
  }
  out["CreatedBy"] = ctx.settings.account_id;
  return out;
}

}  // namespace strata::sandbox::events
