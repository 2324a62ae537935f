#include "engine/cli/json_ui.h"

#include <cstdlib>
#include <map>

#include <fmt/format.h>

#include "engine/base/time_format.h"
#include "engine/core/version.h"
#include "engine/diag/render.h"
#include "engine/plan/render_json.h"

namespace strata::cli {
namespace {

using json = nlohmann::ordered_json;

// The Terraform release whose UI format this is, and the format's version.
constexpr const char* kUiTerraformVersion = "1.11.0";
constexpr const char* kUiVersion = "1.2";

std::string TimestampMicros(base::Clock::TimePoint t) {
  std::string seconds = base::FormatRfc3339(t);  // "...:28Z"
  auto micros = std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count() % 1000000;
  return seconds.substr(0, seconds.size() - 1) + fmt::format(".{:06d}Z", micros);
}

// Terraform's ChangeAction of a planned change.
const char* ChangeActionName(Action a) {
  switch (a) {
    case Action::NoOp: return "noop";
    case Action::Create: return "create";
    case Action::Read: return "read";
    case Action::Update: return "update";
    case Action::DeleteThenCreate:
    case Action::CreateThenDelete: return "replace";
    case Action::Delete: return "delete";
    case Action::Forget: return "remove";  // Terraform's spelling of a forget in the UI stream
  }
  return "noop";
}

// Terraform's ChangeReason (the UI's spelling, shorter than the plan JSON's for replaces);
// "" for none and for Strata's own reasons.
std::string ChangeReasonName(ActionReason r) {
  switch (r) {
    case ActionReason::ReplaceBecauseTainted: return "tainted";
    case ActionReason::ReplaceByRequest: return "requested";
    case ActionReason::ReplaceBecauseCannotUpdate: return "cannot_update";
    case ActionReason::RecreateBecauseGone:
    case ActionReason::CreateAfterInterruption:
    case ActionReason::InterruptedCreate:
    case ActionReason::None: return "";
    default: return ActionReasonName(r);
  }
}

const char* HookActionName(state::OperationAction op) {
  switch (op) {
    case state::OperationAction::Create: return "create";
    case state::OperationAction::Update: return "update";
    case state::OperationAction::Delete: return "delete";
    case state::OperationAction::Read: return "read";
  }
  return "create";
}

std::string PlanSummaryLine(int add, int change, int remove) {
  return fmt::format("Plan: {} to add, {} to change, {} to destroy.", add, change, remove);
}

json ChangesJson(int add, int change, int remove, const char* operation) {
  return json{{"add", add}, {"change", change}, {"import", 0}, {"remove", remove}, {"operation", operation}};
}

}  // namespace

std::unique_ptr<base::Clock> UiClock() {
  const char* fixed = std::getenv("STRATA_UI_TIME");
  base::Clock::TimePoint t;
  if (fixed && base::ParseRfc3339(fixed, &t)) return std::make_unique<base::FakeClock>(t);
  return std::make_unique<base::SystemClock>();
}

std::unique_ptr<JsonUi> JsonUi::ForStage(const std::string& stage) {
  auto ui = std::make_unique<JsonUi>(out_, clock_);
  ui->mu_ = mu_;
  ui->stage_ = stage;
  return ui;
}

json ResourceJson(const ResourceInstanceAddr& addr) {
  json r = json::object();
  r["addr"] = addr.ToString();
  r["module"] = addr.module.ToString();
  r["resource"] = ResourceInstanceAddr{{}, addr.resource, addr.key}.ToString();
  // Terraform's implied provider: the type's name up to its first underscore.
  const std::string& type = addr.resource.type;
  r["implied_provider"] = type.substr(0, type.find('_'));
  r["resource_type"] = type;
  r["resource_name"] = addr.resource.name;
  if (addr.key.IsInt()) r["resource_key"] = addr.key.AsInt();
  else if (addr.key.IsString()) r["resource_key"] = addr.key.AsString();
  else r["resource_key"] = nullptr;
  return r;
}

void JsonUi::Message(const std::string& level, const std::string& message, const std::string& type, const json& body) {
  // Terraform's top-level keys are in alphabetical order ("@" ones first).
  std::map<std::string, json> keys;
  keys["@level"] = level;
  keys["@message"] = message;
  keys["@module"] = "strata.ui";
  keys["@timestamp"] = TimestampMicros(clock_.Now());
  for (const auto& [k, v] : body.items()) keys[k] = v;
  if (!stage_.empty()) keys["stage"] = stage_;
  keys["type"] = type;
  json line = json::object();
  for (auto& [k, v] : keys) line[k] = std::move(v);
  std::lock_guard lock(*mu_);
  out_ << line.dump() << "\n";
  out_.flush();
}

void JsonUi::Version() {
  Message("info", fmt::format("Strata {}", kStrataVersion), "version",
          json{{"strata", kStrataVersion}, {"terraform", kUiTerraformVersion}, {"ui", kUiVersion}});
}

void JsonUi::Plan(const strata::Plan& plan) {
  for (const ResourceInstanceChange& d : plan.drift) {
    json change{{"resource", ResourceJson(d.addr)}, {"action", ChangeActionName(d.action)}};
    Message("info", fmt::format("{}: Drift detected ({})", d.addr.ToString(), ChangeActionName(d.action)),
            "resource_drift", json{{"change", change}});
  }
  int add = 0, change = 0, remove = 0;
  for (const ResourceInstanceChange& c : plan.changes) {
    if (c.action == Action::NoOp) continue;
    bool replace = c.action == Action::DeleteThenCreate || c.action == Action::CreateThenDelete;
    add += c.action == Action::Create || replace;
    change += c.action == Action::Update;
    remove += c.action == Action::Delete || replace;
    json ch{{"resource", ResourceJson(c.addr)}, {"action", ChangeActionName(c.action)}};
    if (std::string reason = ChangeReasonName(c.reason); !reason.empty()) ch["reason"] = reason;
    Message("info", fmt::format("{}: Plan to {}", c.addr.ToString(), ChangeActionName(c.action)), "planned_change",
            json{{"change", ch}});
  }
  Message("info", PlanSummaryLine(add, change, remove), "change_summary",
          json{{"changes", ChangesJson(add, change, remove, "plan")}});
  if (plan.output_changes.empty()) return;
  json outputs = json::object();
  for (const OutputChange& o : plan.output_changes) {
    outputs[o.name] = json{{"sensitive", o.sensitive || o.after.ContainsSensitive()}, {"action", ChangeActionName(o.action)}};
  }
  Message("info", fmt::format("Outputs: {}", plan.output_changes.size()), "outputs", json{{"outputs", outputs}});
}

void JsonUi::Diagnostics(const strata::Diagnostics& diags, const SourceRegistry* sources) {
  for (const Diagnostic& d : diags) {
    bool error = d.severity == Severity::Error;
    // Terraform's order of a diagnostic's keys.
    nlohmann::json sorted = DiagnosticToJson(d, sources);
    json diagnostic = json::object();
    for (const char* key : {"severity", "summary", "detail", "address", "range", "snippet"}) {
      if (sorted.contains(key)) diagnostic[key] = sorted[key];
    }
    Message(error ? "error" : "warn", fmt::format("{}: {}", error ? "Error" : "Warning", d.summary), "diagnostic",
            json{{"diagnostic", diagnostic}});
  }
}

void JsonApplyView::Event(const ApplyEvent& e) {
  ResourceInstanceAddr addr;
  if (auto parsed = ParseResourceInstanceAddr(e.address); parsed.addr) addr = *parsed.addr;
  json hook{{"resource", ResourceJson(addr)}, {"action", HookActionName(e.operation)}};
  bool started = e.kind == ApplyEvent::Kind::Started;
  bool shows_id = !e.id.empty() && !(started && e.operation == state::OperationAction::Create) &&
                  !(e.kind == ApplyEvent::Kind::Finished && e.operation == state::OperationAction::Delete) &&
                  e.kind != ApplyEvent::Kind::Failed;
  if (shows_id) {
    hook["id_key"] = "id";
    hook["id_value"] = e.id;
  }
  if (!started) hook["elapsed_seconds"] = e.elapsed.count() / 1000;
  std::string line = EventLine(e);
  switch (e.kind) {
    case ApplyEvent::Kind::Started: ui_.Message("info", line, "apply_start", json{{"hook", hook}}); break;
    case ApplyEvent::Kind::Progress: ui_.Message("info", line, "apply_progress", json{{"hook", hook}}); break;
    case ApplyEvent::Kind::Finished: ui_.Message("info", line, "apply_complete", json{{"hook", hook}}); break;
    case ApplyEvent::Kind::Failed: {
      // Terraform's words: "Creation errored after 1s".
      size_t at = line.rfind(" failed after ");
      if (at != std::string::npos) line.replace(at, 7, " errored");
      ui_.Message("info", line, "apply_errored", json{{"hook", hook}});  // Terraform's level: the error is the diagnostic's
      break;
    }
  }
}

// Terraform ends a failed apply with its diagnostics and no change_summary. The failures'
// own diagnostics are out already; an interruption and a destroy that left objects in
// state get one that lists them.
void JsonApplyView::Summary(const ApplyOutcome& o, bool destroy, const strata::Plan& plan) {
  strata::Diagnostics closing;
  auto list = [](const std::vector<std::string>& addresses) {
    std::string text;
    for (const auto& a : addresses) text += "\n  " + a;
    return text;
  };
  if (o.interrupted) {
    closing.Error("Apply interrupted", fmt::format("{} What succeeded is recorded in state; run plan to see what is "
                                                   "left. Not started:{}",
                                                   CountsLine(o, destroy), list(o.not_started)));
  } else if (destroy && o.failed.empty() && !o.remaining.empty()) {
    closing.Error("Destroy incomplete", fmt::format("{} Still in state:{}", CountsLine(o, destroy), list(o.remaining)));
  }
  ui_.Diagnostics(closing, nullptr);
  if (!o.failed.empty() || o.interrupted || !o.remaining.empty() || o.commit_failed) return;
  std::string what = destroy ? "Destroy" : "Apply";
  ui_.Message("info", fmt::format("{} complete! {}", what, CountsLine(o, destroy)), "change_summary",
              json{{"changes", ChangesJson(o.added, o.changed, o.destroyed, destroy ? "destroy" : "apply")}});
  if (destroy || o.outputs.empty()) return;
  std::map<std::string, bool> declared;
  for (const OutputChange& oc : plan.output_changes) declared[oc.name] = oc.sensitive;
  json outputs = json::object();
  for (const auto& [name, value] : o.outputs) {
    bool sensitive = declared[name] || value.ContainsSensitive();
    json e{{"sensitive", sensitive}, {"type", TypeJson(value)}};
    if (!sensitive) e["value"] = KnownValueJson(value);
    outputs[name] = std::move(e);
  }
  ui_.Message("info", fmt::format("Outputs: {}", o.outputs.size()), "outputs", json{{"outputs", outputs}});
}

JsonEventsScope::JsonEventsScope(CommandContext& ctx)
    : ctx_(ctx), clock_(UiClock()), ui_(std::make_unique<JsonUi>(*ctx.out, *clock_)) {
  ctx_.events = ui_.get();
  ui_->Version();
}

JsonEventsScope::~JsonEventsScope() { ctx_.events = nullptr; }

}  // namespace strata::cli
