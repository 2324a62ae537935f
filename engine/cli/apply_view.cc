#include "engine/cli/apply_view.h"

#include <fmt/format.h>

#include "engine/value/format.h"

namespace strata::cli {

namespace {

using state::OperationAction;

// Terraform's words for each operation: starting, still running, done, failed.
struct Words {
  const char* start;
  const char* still;
  const char* done;
  const char* failed;
};

Words WordsFor(OperationAction op) {
  switch (op) {
    case OperationAction::Create: return {"Creating...", "Still creating...", "Creation complete", "Creation failed"};
    case OperationAction::Update:
      return {"Modifying...", "Still modifying...", "Modifications complete", "Modifications failed"};
    case OperationAction::Delete:
      return {"Destroying...", "Still destroying...", "Destruction complete", "Destruction failed"};
    case OperationAction::Read: return {"Reading...", "Still reading...", "Read complete", "Read failed"};
  }
  return {"", "", "", ""};
}

std::string IdSuffix(const std::string& id) { return id.empty() ? "" : " [id=" + id + "]"; }

}  // namespace

std::string FormatElapsed(std::chrono::milliseconds elapsed) {
  int64_t s = elapsed.count() / 1000;
  int64_t h = s / 3600, m = (s % 3600) / 60, sec = s % 60;
  if (h) return fmt::format("{}h{}m{}s", h, m, sec);
  if (m) return fmt::format("{}m{}s", m, sec);
  return fmt::format("{}s", sec);
}

std::string EventLine(const ApplyEvent& e) {
  std::string line;
  switch (e.kind) {
    case ApplyEvent::Kind::Started:
      line = fmt::format("{}: {}{}", e.address, WordsFor(e.operation).start, e.operation == OperationAction::Create ? "" : IdSuffix(e.id));
      break;
    case ApplyEvent::Kind::Progress:
      line = e.message.empty() ? fmt::format("{}: {}{} [{} elapsed]", e.address, WordsFor(e.operation).still,
                                             e.operation == OperationAction::Create ? "" : " " + IdSuffix(e.id).substr(1),
                                             FormatElapsed(e.elapsed))
                               : fmt::format("{}: {}", e.address, e.message);
      break;
    case ApplyEvent::Kind::Finished:
      line = fmt::format("{}: {} after {}{}", e.address, WordsFor(e.operation).done, FormatElapsed(e.elapsed),
                         e.operation == OperationAction::Delete ? "" : IdSuffix(e.id));
      break;
    case ApplyEvent::Kind::Failed:
      line = fmt::format("{}: {} after {}", e.address, WordsFor(e.operation).failed, FormatElapsed(e.elapsed));
      break;
  }
  return line;
}

std::string CountsLine(const ApplyOutcome& o, bool destroy) {
  return destroy ? fmt::format("Resources: {} destroyed.", o.destroyed)
                 : fmt::format("Resources: {}{} added, {} changed, {} destroyed.",
                               o.imported ? fmt::format("{} imported, ", o.imported) : "", o.added, o.changed, o.destroyed);
}

void ApplyView::Event(const ApplyEvent& e) {
  std::string line = EventLine(e);
  std::lock_guard lock(mu_);
  if (color_) out_ << "\x1b[1m" << line << "\x1b[0m\n";
  else out_ << line << "\n";
  out_.flush();
}

void ApplyView::Summary(const ApplyOutcome& o, bool destroy, const Plan& plan) {
  std::lock_guard lock(mu_);
  std::string counts = CountsLine(o, destroy);
  if (destroy && o.failed.empty() && !o.interrupted && !o.remaining.empty()) {
    out_ << "\nDestroy incomplete. " << counts << " " << o.remaining.size() << " still in state:\n";
    for (const auto& a : o.remaining) out_ << "  remaining: " << a << "\n";
    return;
  }
  if (o.commit_failed && o.failed.empty() && !o.interrupted) {
    out_ << "\nApply failed. " << counts << " Its results could not be committed to the state: see the error above.\n";
    return;
  }
  if (o.failed.empty() && !o.interrupted) {
    std::string done = fmt::format("{} complete! {}", destroy ? "Destroy" : "Apply", counts);
    out_ << "\n" << (color_ ? "\x1b[1m\x1b[32m" + done + "\x1b[0m" : done) << "\n";
    if (!destroy) out_ << RenderOutputs(o.outputs, plan);
    return;
  }
  out_ << "\n"
       << (o.interrupted ? "Apply interrupted" : "Apply failed") << ". " << counts << " " << o.failed.size()
       << " failed, " << o.skipped.size() << " skipped.\n";
  for (const auto& a : o.failed) out_ << "  failed:  " << a << "\n";
  for (const auto& a : o.skipped) out_ << "  skipped: " << a << " (depends on what failed)\n";
  if (!o.not_started.empty()) {
    out_ << "Not started because of the interrupt (" << o.not_started.size() << "):\n";
    for (const auto& a : o.not_started) out_ << "  " << a << "\n";
  }
  if (o.commit_failed) {
    out_ << "Its results could not be committed to the state: see the error above.\n";
  } else {
    out_ << "What succeeded is recorded in state; run plan to see what is left.\n";
  }
}

std::string RenderOutputs(const std::map<std::string, Value>& outputs, const Plan& plan) {
  if (outputs.empty()) return "";
  std::map<std::string, bool> sensitive;
  for (const auto& oc : plan.output_changes) sensitive[oc.name] = oc.sensitive;
  std::string out = "\nOutputs:\n\n";
  for (const auto& [name, value] : outputs) {
    bool masked = sensitive[name] || value.ContainsSensitive();
    out += name + " = " + (masked ? std::string("<sensitive>") : FormatValue(value)) + "\n";
  }
  return out;
}

}  // namespace strata::cli
