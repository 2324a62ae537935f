#include "engine/plan/file/plan_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "engine/base/duration.h"
#include "engine/base/hex.h"
#include "engine/value/json.h"
#include "state/crypto/sealer.h"
#include "state/private_file.h"
#include "state/sensitive_paths.h"

namespace strata {
namespace {

using state::SensitiveSplit;
using state::SplitSensitive;
using state::JoinSensitive;
using state::StateCode;
using state::StateEnvironment;
using state::StateResult;
using state::StateStatus;
namespace crypto = state::crypto;

using nlohmann::json;
using ojson = nlohmann::ordered_json;  // the document keeps its keys in the order written

constexpr char kFormat[] = "strata-plan";

// ---------------------------------------------------------------------------------------------
// Names of enumerators in the file.

const char* ActionName(Action action) {
  switch (action) {
    case Action::NoOp: return "no-op";
    case Action::Create: return "create";
    case Action::Read: return "read";
    case Action::Update: return "update";
    case Action::DeleteThenCreate: return "delete-then-create";
    case Action::CreateThenDelete: return "create-then-delete";
    case Action::Delete: return "delete";
    case Action::Forget: return "forget";
  }
  return "no-op";
}

constexpr Action kActions[] = {Action::NoOp,   Action::Create,           Action::Read,
                               Action::Update, Action::DeleteThenCreate, Action::CreateThenDelete,
                               Action::Delete, Action::Forget};
constexpr PlanMode kPlanModes[] = {PlanMode::Normal, PlanMode::Destroy, PlanMode::RefreshOnly};

// ActionReasonName is "" for None and for values past the last reason, so the reasons are
// found by counting up until the name runs out.
std::vector<ActionReason> AllReasons() {
  std::vector<ActionReason> all{ActionReason::None};
  for (int i = 1; *ActionReasonName(static_cast<ActionReason>(i)) != '\0'; ++i) all.push_back(static_cast<ActionReason>(i));
  return all;
}

template <class E, class Range>
std::optional<E> EnumNamed(const std::string& name, const Range& all, const char* (*name_of)(E)) {
  for (E e : all) {
    if (name == name_of(e)) return e;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Values (the VALUE record of plan_file.h).

const char* KindTag(ValueKind kind) {
  switch (kind) {
    case ValueKind::List: return "list";
    case ValueKind::Set: return "set";
    case ValueKind::Map: return "map";
    default: return nullptr;  // tuples and objects are what JSON arrays and objects decode to
  }
}

constexpr ValueKind kTaggedKinds[] = {ValueKind::List, ValueKind::Set, ValueKind::Map};

// What the clear JSON of SplitSensitive does not say, for the nodes outside sensitive ones.
struct Annotations {
  json unknown = json::array();
  json nonfinite = json::array();
  json kinds = json::object();
  std::vector<Value> secrets;  // the sensitive nodes, unmarked at the top, in SplitSensitive's order
};

void Annotate(const Value& v, json& path, Annotations& out) {
  if (v.IsSensitive()) {
    out.secrets.push_back(v.MarkSensitive(false));
    return;
  }
  if (v.IsUnknown()) {
    out.unknown.push_back(path);
  } else if (v.IsNumber() && !NumberFitsJson(v.AsExactNumber())) {
    // Infinities, and numbers beyond a JSON double or integer (1e+500): their exact text.
    out.nonfinite.push_back(json::array({path, FormatNumber(v.AsExactNumber())}));
  } else if (const char* tag = KindTag(v.kind())) {
    out.kinds[tag].push_back(path);
  }
  if (v.IsSequence()) {
    int64_t i = 0;
    for (const auto& e : v.AsList()) {
      path.push_back(i++);
      Annotate(e, path, out);
      path.erase(path.size() - 1);
    }
  } else if (v.IsMapping()) {
    for (const auto& [k, e] : v.AsMap()) {
      path.push_back(k);
      Annotate(e, path, out);
      path.erase(path.size() - 1);
    }
  }
}

json EncodeValue(const Value& v, const crypto::KeyRing& ring, StateEnvironment& env) {
  SensitiveSplit split = SplitSensitive(v);
  Annotations notes;
  json path = json::array();
  Annotate(v, path, notes);
  json record = {{"value", std::move(split.clear)}};
  if (!notes.unknown.empty()) record["unknown"] = std::move(notes.unknown);
  if (!notes.kinds.empty()) record["kinds"] = std::move(notes.kinds);
  if (!notes.nonfinite.empty()) record["nonfinite"] = std::move(notes.nonfinite);
  assert(split.paths.size() == notes.secrets.size());
  if (!split.paths.empty()) {
    json secrets = json::array();
    for (const Value& secret : notes.secrets) secrets.push_back(crypto::Seal(EncodeValue(secret, ring, env).dump(), ring, env));
    record["sensitive"] = std::move(split.paths);
    record["secrets"] = std::move(secrets);
  }
  return record;
}

// The nodes a record replaces in its clear JSON, by path.
struct Overrides {
  std::map<json, Value> values;  // unknowns, non-finite numbers, secrets
  std::map<json, ValueKind> kinds;
};

// Rebuilds the Value of `j` (at `path`); `used` counts the overrides that found their node.
Value Build(const json& j, json& path, const Overrides& o, size_t& used) {
  if (auto it = o.values.find(path); it != o.values.end()) {
    ++used;
    return it->second;
  }
  auto tagged = o.kinds.find(path);
  if (j.is_array()) {
    ValueList items;
    items.reserve(j.size());
    for (size_t i = 0; i < j.size(); ++i) {
      path.push_back(static_cast<int64_t>(i));
      items.push_back(Build(j[i], path, o, used));
      path.erase(path.size() - 1);
    }
    if (tagged == o.kinds.end() || tagged->second == ValueKind::Map) return Value::Tuple(std::move(items));
    ++used;
    return tagged->second == ValueKind::Set ? Value::Set(std::move(items)) : Value::List(std::move(items));
  }
  if (j.is_object()) {
    ValueMap items;
    for (const auto& [k, e] : j.items()) {
      path.push_back(k);
      items.emplace(k, Build(e, path, o, used));
      path.erase(path.size() - 1);
    }
    if (tagged == o.kinds.end() || tagged->second != ValueKind::Map) return Value::Object(std::move(items));
    ++used;
    return Value::Map(std::move(items));
  }
  return JsonToValue(j);
}

// ---------------------------------------------------------------------------------------------
// Writing.

class Writer {
 public:
  Writer(const crypto::KeyRing& ring, StateEnvironment& env) : ring_(ring), env_(env) {}

  ojson Val(const Value& v) const { return ojson(EncodeValue(v, ring_, env_)); }

  ojson Change(const ResourceInstanceChange& c) const {
    ojson replace = ojson::array();
    for (const AttrPath& p : c.requires_replace) {
      ojson steps = ojson::array();
      for (const PathStep& s : p.steps) {
        switch (s.kind) {
          case PathStep::Kind::Attr: steps.push_back(s.name); break;
          case PathStep::Kind::Key: steps.push_back(ojson{{"key", s.name}}); break;
          case PathStep::Kind::Index: steps.push_back(s.index); break;
        }
      }
      replace.push_back(std::move(steps));
    }
    ojson j = ojson::object();
    j["address"] = c.addr.ToString();
    j["type"] = c.type;
    j["provider"] = c.provider;
    j["mode"] = c.mode;
    j["action"] = ActionName(c.action);
    j["reason"] = ActionReasonName(c.reason);
    j["schema_version"] = c.schema_version;
    j["idempotency_token"] = c.idempotency_token;
    j["dependencies"] = c.dependencies;
    j["create_before_destroy"] = c.create_before_destroy;
    if (!c.timeouts.empty()) j["timeouts"] = c.timeouts;
    if (c.recovery != CreateRecovery::Unspecified) j["recovery"] = CreateRecoveryName(c.recovery);
    if (c.previous_addr) j["previous_address"] = c.previous_addr->ToString();
    if (c.importing_id) j["importing_id"] = *c.importing_id;
    if (c.generated_config) j["generated_config"] = true;
    if (!c.deposed.empty()) j["deposed"] = c.deposed;
    j["requires_replace"] = std::move(replace);
    j["before"] = Val(c.before);
    j["after"] = Val(c.after);
    return j;
  }

  ojson Changes(const std::vector<ResourceInstanceChange>& changes) const {
    ojson a = ojson::array();
    for (const auto& c : changes) a.push_back(Change(c));
    return a;
  }

  ojson Document(const Plan& plan) const {
    ojson doc = ojson::object();
    doc["format"] = kFormat;
    doc["version"] = kPlanFileVersion;
    doc["stage"] = plan.stage;
    doc["environment"] = plan.environment;
    doc["mode"] = PlanModeName(plan.mode);
    doc["errored"] = plan.errored;
    doc["prior_lineage"] = plan.prior_lineage;
    doc["prior_serial"] = plan.prior_serial;
    doc["prior_state_digest"] = plan.prior_state_digest;
    doc["config_digest"] = plan.config_digest;
    doc["timestamp"] = plan.timestamp;
    doc["targets"] = plan.targets;
    doc["replace"] = plan.replace;
    ojson variables = ojson::object();
    for (const auto& [name, v] : plan.variables) variables[name] = Val(v);
    doc["variables"] = std::move(variables);
    doc["changes"] = Changes(plan.changes);
    doc["drift"] = Changes(plan.drift);
    ojson outputs = ojson::array();
    for (const OutputChange& o : plan.output_changes) {
      ojson j = ojson::object();
      j["name"] = o.name;
      j["action"] = ActionName(o.action);
      j["before"] = Val(o.before);
      j["after"] = Val(o.after);
      j["sensitive"] = o.sensitive;
      outputs.push_back(std::move(j));
    }
    doc["output_changes"] = std::move(outputs);
    if (!plan.upstream_changes.empty()) {
      ojson upstream = ojson::array();
      for (const UpstreamOutputChange& c : plan.upstream_changes) {
        ojson j = ojson::object();
        j["stage"] = c.stage;
        j["output"] = c.output;
        j["sensitive"] = c.sensitive;
        j["serial_then"] = c.serial_then;
        j["serial_now"] = c.serial_now;
        j["unavailable"] = c.unavailable;
        upstream.push_back(std::move(j));
      }
      doc["upstream_changes"] = std::move(upstream);
    }
    return doc;
  }

 private:
  const crypto::KeyRing& ring_;
  StateEnvironment& env_;
};

// ---------------------------------------------------------------------------------------------
// Reading. Errors are thrown as FileError inside the reader and returned by ReadPlanFile.

struct FileError {
  StateStatus status;
};

template <class T>
bool HasType(const json& j) {
  if constexpr (std::is_same_v<T, std::string>) {
    return j.is_string();
  } else if constexpr (std::is_same_v<T, bool>) {
    return j.is_boolean();
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return j.is_number_integer();
  } else if constexpr (std::is_same_v<T, int>) {
    return j.is_number_integer() && j.get<int64_t>() >= std::numeric_limits<int>::min() &&
           j.get<int64_t>() <= std::numeric_limits<int>::max();
  } else {
    static_assert(std::is_same_v<T, std::vector<std::string>>);
    return j.is_array() && std::all_of(j.begin(), j.end(), [](const json& e) { return e.is_string(); });
  }
}

template <class T>
const char* TypeWord() {
  if constexpr (std::is_same_v<T, std::string>) {
    return "a string";
  } else if constexpr (std::is_same_v<T, bool>) {
    return "true or false";
  } else if constexpr (std::is_integral_v<T>) {
    return "an integer";
  } else {
    return "a list of strings";
  }
}

class Reader {
 public:
  Reader(std::string path, const crypto::KeyRing& ring) : path_(std::move(path)), ring_(ring) {}

  [[noreturn]] void Damaged(const std::string& where, const std::string& problem) const {
    throw FileError{StateStatus::Error(StateCode::Corrupt, "plan file " + path_ + " is damaged (" + where + ": " +
                                                               problem + "); make a new plan with `strata plan -out " +
                                                               path_ + "`")};
  }

  template <class T>
  T Get(const json& obj, const std::string& where, const char* key) const {
    auto it = obj.find(key);
    if (it == obj.end() || !HasType<T>(*it)) Damaged(where + key, std::string("missing or not ") + TypeWord<T>());
    return it->get<T>();
  }

  // A change's timeouts: each a duration the config loader would accept.
  std::map<std::string, std::string> Timeouts(const json& obj, const std::string& where) const {
    std::map<std::string, std::string> out;
    for (const auto& [op, text] : obj.items()) {
      if (op != "create" && op != "read" && op != "update" && op != "delete") Damaged(where + op, "not an operation");
      std::string error;
      auto d = text.is_string() ? base::ParseGoDuration(text.get<std::string>(), &error) : std::nullopt;
      if (!d || d->count() <= 0) Damaged(where + op, "not a duration");
      out[op] = text.get<std::string>();
    }
    return out;
  }

  const json& Member(const json& obj, const std::string& where, const char* key, bool (json::*is)() const noexcept,
                     const char* what) const {
    auto it = obj.find(key);
    if (it == obj.end() || !((*it).*is)()) Damaged(where + key, std::string("missing or not ") + what);
    return *it;
  }
  const json& Array(const json& obj, const std::string& where, const char* key) const {
    return Member(obj, where, key, &json::is_array, "a list");
  }
  const json& Object(const json& obj, const std::string& where, const char* key) const {
    return Member(obj, where, key, &json::is_object, "an object");
  }

  Action ActionOf(const json& obj, const std::string& where) const {
    auto action = EnumNamed<Action>(Get<std::string>(obj, where, "action"), kActions, &ActionName);
    if (!action) Damaged(where + "action", "unknown action");
    return *action;
  }

  // `where` locates the record in the document, `what` names the value in key messages.
  Value Val(const json& obj, const std::string& where, const char* key, const std::string& what) const {
    return Record(Object(obj, where, key), where + key, what);
  }

  Value Record(const json& rec, const std::string& where, const std::string& what) const {
    auto value = rec.find("value");
    if (value == rec.end()) Damaged(where, "no value");
    Overrides o;
    auto paths = [&](const char* key) -> const json& {
      static const json kNone = json::array();
      return rec.contains(key) ? Array(rec, where + ".", key) : kNone;
    };
    for (const json& p : paths("unknown")) o.values[p] = Value::Unknown();
    for (const json& e : paths("nonfinite")) {
      if (!e.is_array() || e.size() != 2 || !e[1].is_string()) Damaged(where + ".nonfinite", "malformed entry");
      std::string text = e[1].get<std::string>();
      if (auto exact = Number::Parse(text)) {
        o.values[e[0]] = Value::Number(*exact);
        continue;
      }
      double n = text == "NaN"    ? std::numeric_limits<double>::quiet_NaN()
                 : text == "-Inf" ? -std::numeric_limits<double>::infinity()
                                  : std::numeric_limits<double>::infinity();
      o.values[e[0]] = Value::Number(n);
    }
    if (rec.contains("kinds")) {
      const json& kinds = Object(rec, where + ".", "kinds");
      for (ValueKind kind : kTaggedKinds) {
        for (const json& p : kinds.value(KindTag(kind), json::array())) o.kinds[p] = kind;
      }
    }
    const json& sensitive = paths("sensitive");
    const json& secrets = paths("secrets");
    if (sensitive.size() != secrets.size()) Damaged(where, "as many secrets as sensitive paths expected");
    for (size_t i = 0; i < sensitive.size(); ++i) {
      if (!secrets[i].is_string()) Damaged(where + ".secrets", "a secret is not a string");
      std::string item = what + (sensitive[i].empty() ? "" : " " + sensitive[i].dump());
      auto plain = crypto::Open(secrets[i].get<std::string>(), ring_, item);
      if (!plain.ok()) {
        throw FileError{StateStatus::Error(plain.status().code(), "plan file " + path_ + ": " +
                                                                      plain.status().message())};
      }
      json inner = json::parse(*plain, nullptr, false);
      if (!inner.is_object()) Damaged(where + ".secrets", "a decrypted secret is not a value record");
      o.values[sensitive[i]] = Record(inner, where + ".secrets", item).MarkSensitive();
    }
    size_t used = 0;
    json path = json::array();
    Value v = Build(*value, path, o, used);
    if (used != o.values.size() + o.kinds.size()) Damaged(where, "a path does not fit the value");
    return v;
  }

  ResourceInstanceChange Change(const json& j, const std::string& at) const {
    if (!j.is_object()) Damaged(at, "not an object");
    std::string where = at + ".";
    ResourceInstanceChange c;
    std::string address = Get<std::string>(j, where, "address");
    AddrParseResult parsed = ParseResourceInstanceAddr(address);
    if (!parsed.addr) Damaged(where + "address", parsed.error);
    c.addr = *parsed.addr;
    c.type = Get<std::string>(j, where, "type");
    c.provider = Get<std::string>(j, where, "provider");
    c.mode = Get<std::string>(j, where, "mode");
    c.action = ActionOf(j, where);
    static const std::vector<ActionReason> kReasons = AllReasons();
    auto reason = EnumNamed<ActionReason>(Get<std::string>(j, where, "reason"), kReasons, &ActionReasonName);
    if (!reason) Damaged(where + "reason", "unknown reason");
    c.reason = *reason;
    c.schema_version = Get<int>(j, where, "schema_version");
    c.idempotency_token = Get<std::string>(j, where, "idempotency_token");
    c.dependencies = Get<std::vector<std::string>>(j, where, "dependencies");
    c.create_before_destroy = Get<bool>(j, where, "create_before_destroy");
    if (j.contains("timeouts")) c.timeouts = Timeouts(Object(j, where, "timeouts"), where + "timeouts.");
    if (j.contains("recovery")) {
      auto recovery = ParseCreateRecovery(Get<std::string>(j, where, "recovery"));
      if (!recovery) Damaged(where + "recovery", "unknown create recovery");
      c.recovery = *recovery;
    }
    if (j.contains("previous_address")) {
      AddrParseResult previous = ParseResourceInstanceAddr(Get<std::string>(j, where, "previous_address"));
      if (!previous.addr) Damaged(where + "previous_address", previous.error);
      c.previous_addr = *previous.addr;
    }
    if (j.contains("importing_id")) c.importing_id = Get<std::string>(j, where, "importing_id");
    if (j.contains("generated_config")) c.generated_config = Get<bool>(j, where, "generated_config");
    if (j.contains("deposed")) c.deposed = Get<std::string>(j, where, "deposed");
    for (const json& p : Array(j, where, "requires_replace")) {
      if (!p.is_array()) Damaged(where + "requires_replace", "malformed path");
      AttrPath path;
      for (const json& s : p) {
        if (s.is_string()) {
          path.steps.push_back(PathStep::Attr(s.get<std::string>()));
        } else if (s.is_number_integer()) {
          path.steps.push_back(PathStep::Index(s.get<int64_t>()));
        } else if (s.is_object() && s.contains("key") && s["key"].is_string()) {
          path.steps.push_back(PathStep::Key(s["key"].get<std::string>()));
        } else {
          Damaged(where + "requires_replace", "malformed path");
        }
      }
      c.requires_replace.push_back(std::move(path));
    }
    c.before = Val(j, where, "before", address + " before");
    c.after = Val(j, where, "after", address + " after");
    return c;
  }

  std::vector<ResourceInstanceChange> Changes(const json& doc, const char* key) const {
    std::vector<ResourceInstanceChange> out;
    const json& a = Array(doc, "", key);
    for (size_t i = 0; i < a.size(); ++i) out.push_back(Change(a[i], std::string(key) + "[" + std::to_string(i) + "]"));
    return out;
  }

  Plan Document(const json& doc) const {
    Plan plan;
    plan.stage = Get<std::string>(doc, "", "stage");
    // Plan files from before environments were made in `default`.
    if (doc.contains("environment")) plan.environment = Get<std::string>(doc, "", "environment");
    auto mode = EnumNamed<PlanMode>(Get<std::string>(doc, "", "mode"), kPlanModes, &PlanModeName);
    if (!mode) Damaged("mode", "unknown plan mode");
    plan.mode = *mode;
    plan.errored = Get<bool>(doc, "", "errored");
    plan.prior_lineage = Get<std::string>(doc, "", "prior_lineage");
    plan.prior_serial = Get<int64_t>(doc, "", "prior_serial");
    plan.prior_state_digest = Get<std::string>(doc, "", "prior_state_digest");
    plan.config_digest = Get<std::string>(doc, "", "config_digest");
    if (doc.contains("timestamp")) plan.timestamp = Get<std::string>(doc, "", "timestamp");
    plan.targets = Get<std::vector<std::string>>(doc, "", "targets");
    plan.replace = Get<std::vector<std::string>>(doc, "", "replace");
    const json& variables = Object(doc, "", "variables");
    for (const auto& [name, rec] : variables.items()) {
      plan.variables[name] = Val(variables, "variables.", name.c_str(), "variable " + name);
    }
    plan.changes = Changes(doc, "changes");
    plan.drift = Changes(doc, "drift");
    const json& outputs = Array(doc, "", "output_changes");
    for (size_t i = 0; i < outputs.size(); ++i) {
      std::string where = "output_changes[" + std::to_string(i) + "].";
      if (!outputs[i].is_object()) Damaged(where, "not an object");
      OutputChange o;
      o.name = Get<std::string>(outputs[i], where, "name");
      o.action = ActionOf(outputs[i], where);
      o.before = Val(outputs[i], where, "before", "output " + o.name + " before");
      o.after = Val(outputs[i], where, "after", "output " + o.name + " after");
      o.sensitive = Get<bool>(outputs[i], where, "sensitive");
      plan.output_changes.push_back(std::move(o));
    }
    // Notes only (engine/plan/upstream_notes.h); absent when there are none.
    if (doc.contains("upstream_changes")) {
      const json& upstream = Array(doc, "", "upstream_changes");
      for (size_t i = 0; i < upstream.size(); ++i) {
        std::string where = "upstream_changes[" + std::to_string(i) + "].";
        if (!upstream[i].is_object()) Damaged(where, "not an object");
        UpstreamOutputChange c;
        c.stage = Get<std::string>(upstream[i], where, "stage");
        c.output = Get<std::string>(upstream[i], where, "output");
        c.sensitive = Get<bool>(upstream[i], where, "sensitive");
        c.serial_then = Get<int64_t>(upstream[i], where, "serial_then");
        c.serial_now = Get<int64_t>(upstream[i], where, "serial_now");
        c.unavailable = Get<std::string>(upstream[i], where, "unavailable");
        plan.upstream_changes.push_back(std::move(c));
      }
    }
    return plan;
  }

 private:
  std::string path_;
  const crypto::KeyRing& ring_;
};

StateResult<std::string> ReadWholeFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) {
    return StateStatus::Error(StateCode::NotFound, "plan file " + path +
                                                       " does not exist: check the path, or make a plan with "
                                                       "`strata plan -out " +
                                                       path + "`");
  }
  std::string text;
  bool ok = fd >= 0;
  char buf[65536];
  while (ok) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ok = n == 0;
      break;
    }
    text.append(buf, static_cast<size_t>(n));
  }
  int saved = errno;
  if (fd >= 0) ::close(fd);
  if (!ok) {
    return StateStatus::Error(StateCode::Io, "cannot read plan file " + path + ": " + std::strerror(saved) +
                                                 ": check that it is a readable file");
  }
  return text;
}

StateStatus NotAPlan(const std::string& path, const std::string& why) {
  return StateStatus::Error(StateCode::InvalidArgument,
                            path + " is not a Strata plan file (" + why +
                                "): Strata applies only plan files written by `strata plan -out FILE`; make one "
                                "with `strata plan -out " +
                                path + "`");
}

}  // namespace

StateStatus WritePlanFile(const std::string& path, const Plan& plan, const crypto::KeyRing& ring,
                          StateEnvironment& env) {
  std::string text = Writer(ring, env).Document(plan).dump() + "\n";
  return WritePrivateFile(path, text, "plan file", env);
}

StateResult<Plan> ReadPlanFile(const std::string& path, const crypto::KeyRing& ring) {
  auto text = ReadWholeFile(path);
  if (!text.ok()) return text.status();
  if (text->empty()) return NotAPlan(path, "it is empty");
  if (text->rfind("PK\x03\x04", 0) == 0) {
    return NotAPlan(path, "it is a zip archive, as Terraform and OpenTofu write their plan files");
  }
  json doc = json::parse(*text, nullptr, false);
  std::string header = std::string("{\"format\":\"") + kFormat + "\"";
  if (doc.is_discarded() && text->rfind(header, 0) == 0) {
    return StateStatus::Error(StateCode::Corrupt, "plan file " + path +
                                                      " is damaged (it is not complete JSON: truncated or edited); "
                                                      "make a new plan with `strata plan -out " +
                                                      path + "`");
  }
  if (doc.is_discarded()) return NotAPlan(path, "it is not JSON");
  if (!doc.is_object() || doc.value("format", json()) != kFormat) {
    return NotAPlan(path, "it has no \"format\": \"strata-plan\" member");
  }
  auto version = doc.find("version");
  if (version == doc.end() || !version->is_number_integer() || version->get<int64_t>() < 1) {
    return StateStatus::Error(StateCode::Corrupt, "plan file " + path +
                                                      " is damaged (version: missing or not a positive integer); "
                                                      "make a new plan with `strata plan -out " +
                                                      path + "`");
  }
  if (version->get<int64_t>() > kPlanFileVersion) {
    return StateStatus::Error(
        StateCode::SchemaTooNew,
        "plan file " + path + " was made by a newer Strata (plan file format version " +
            std::to_string(version->get<int64_t>()) + "; this Strata reads version " +
            std::to_string(kPlanFileVersion) + "): apply it with the Strata that made it, or make a new plan with " +
            "this one (`strata plan -out " + path + "`)");
  }
  try {
    return Reader(path, ring).Document(doc);
  } catch (const FileError& e) {
    return e.status;
  }
}

}  // namespace strata
