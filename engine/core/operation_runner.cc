#include "engine/core/operation_runner.h"

#include <fmt/format.h>

#include "engine/core/operation_timeouts.h"

namespace strata {

using state::OperationAction;

std::string ObjectIdOf(const Value& state) {
  if (!state.IsMapping()) return "";
  auto it = state.AsMap().find("id");
  if (it == state.AsMap().end() || !it->second.IsString() || it->second.IsSensitive()) return "";
  return it->second.AsString();
}

bool CheckStored(const state::StateStatus& status, const std::string& address, Diagnostics& out) {
  if (status.ok()) return true;
  Diagnostic d = status.ToDiagnostic();
  d.address = address;
  out.Add(std::move(d));
  return false;
}

state::ResourceInstanceState StateAfter(const ResourceInstanceChange& c, const Value& attributes,
                                        state::ResourceStatus status) {
  state::ResourceInstanceState s;
  s.addr = c.addr;
  s.provider = c.provider;
  s.attributes = attributes;
  s.dependencies = c.dependencies;
  s.status = status;
  s.idempotency_token = c.idempotency_token;
  s.schema_version = c.schema_version;
  return s;
}

OperationRunner::OperationRunner(Options options)
    : options_(std::move(options)),
      ticker_(options_.progress_interval, options_.on_event),
      slots_(options_.parallelism),
      journal_([this](const std::vector<state::JournalEntry>& entries) {
        return Store([&] { return options_.store->WriteJournal(*options_.change_set, entries); });
      }) {}

void OperationRunner::Emit(const ApplyEvent& e) const {
  if (options_.on_event) options_.on_event(e);
}

OperationContext OperationRunner::Context(const std::string& address, OperationAction op, const std::string& id,
                                          const std::string& token) {
  OperationContext ctx;
  ctx.address = address;
  ctx.idempotency_token = token;
  ctx.cancellation = cancel_;
  if (const std::atomic<bool>* stop = options_.stop) ctx.stop_requested = [stop] { return stop->load(); };
  ctx.progress = [this, address, op, id](const std::string& message) {
    ApplyEvent e;
    e.kind = ApplyEvent::Kind::Progress;
    e.address = address;
    e.operation = op;
    e.id = id;
    e.message = message;
    Emit(e);
  };
  return ctx;
}

std::optional<Value> OperationRunner::Run(const ResourceInstanceChange& c, Provider& provider, OperationAction op,
                                          const Value& prior, const Value& planned, Diagnostics& out) {
  std::string address = c.ObjectName();
  std::string id = ObjectIdOf(prior);
  state::JournalEntry begin;
  begin.request = {c.addr, op, c.provider, c.idempotency_token, c.deposed};
  auto journaled = journal_.Write(std::move(begin));
  if (!journaled.ok()) {
    // Not sent: a failure of the operation all the same (what depends on it is skipped).
    CheckStored(journaled.status(), address, out);
    if (options_.on_failed) options_.on_failed(address);
    return std::nullopt;
  }
  ApplyEvent started;
  started.kind = ApplyEvent::Kind::Started;
  started.address = address;
  started.operation = op;
  started.id = id;
  Emit(started);
  auto start = ticker_.Begin(address, op, id);
  OperationContext ctx = Context(address, op, id, c.idempotency_token);
  ctx.resume_interrupted_create = op == OperationAction::Create && c.reason == ActionReason::CreateAfterInterruption;
  OperationSlots::Held slot(slots_);
  SetDeadline(ctx, c.timeouts, op);  // the time limit counts from the call, not the wait for a slot
  Diagnostics result_diags;
  Value result;
  bool outcome_unknown = false;
  switch (op) {
    case OperationAction::Create: {
      ApplyResult r = provider.CreateResource(ctx, c.type, planned);
      result = r.state;
      result_diags = r.diags;
      outcome_unknown = r.outcome_unknown;
      break;
    }
    case OperationAction::Update: {
      ApplyResult r = provider.UpdateResource(ctx, c.type, prior, planned);
      result = r.state;
      result_diags = r.diags;
      break;
    }
    case OperationAction::Delete: result_diags = provider.DeleteResource(ctx, c.type, prior).diags; break;
    case OperationAction::Read: break;
  }
  ticker_.End(address);
  ApplyEvent finished;
  finished.address = address;
  finished.operation = op;
  finished.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  finished.id = op == OperationAction::Delete ? id : ObjectIdOf(result);
  bool timed_out = RanOutOfTime(ctx, result_diags);
  if (timed_out) result_diags = TimeoutDiagnostics(address, c.timeouts, op, result_diags, AfterTimeout(op));
  out.AppendFor(result_diags, address);
  if (result_diags.HasErrors()) {
    std::string message = result_diags.items().empty() ? "failed" : result_diags.items()[0].summary;
    for (const Diagnostic& d : result_diags) {
      if (d.severity == Severity::Error) {
        message = d.summary + (d.detail.empty() ? "" : ": " + d.detail);
        break;
      }
    }
    std::optional<state::ResourceInstanceState> partial = LeftByFailure(c, op, result, outcome_unknown, timed_out, out);
    state::JournalEntry fail;
    fail.kind = state::JournalEntry::Kind::Fail;
    fail.operation_id = *journaled;
    fail.error = message;
    fail.state = std::move(partial);
    CheckStored(journal_.Write(std::move(fail)).status(), address, out);
    finished.kind = ApplyEvent::Kind::Failed;
    Emit(finished);
    if (options_.on_failed) options_.on_failed(address);
    return std::nullopt;
  }
  std::optional<state::ResourceInstanceState> recorded;
  if (op != OperationAction::Delete) recorded = StateAfter(c, result);
  state::JournalEntry complete;
  complete.kind = state::JournalEntry::Kind::Complete;
  complete.operation_id = *journaled;
  complete.state = std::move(recorded);
  if (!CheckStored(journal_.Write(std::move(complete)).status(), address, out)) {
    return std::nullopt;
  }
  finished.kind = ApplyEvent::Kind::Finished;
  Emit(finished);
  return op == OperationAction::Delete ? Value::Null() : result;
}

std::string OperationRunner::AfterTimeout(OperationAction op) {
  if (op == OperationAction::Create) {
    return "The object may exist and may still be on its way: it stays in state as an interrupted create, and the "
           "next apply looks for it by the type's create recovery and waits for it again instead of creating a "
           "second one.";
  }
  if (op == OperationAction::Update) {
    return "State keeps the object as it was before the update; the next plan reads it and plans what is left.";
  }
  return "The object stays in state; the next apply deletes it again.";
}

std::optional<state::ResourceInstanceState> OperationRunner::LeftByFailure(const ResourceInstanceChange& c,
                                                                           OperationAction op, const Value& result,
                                                                           bool outcome_unknown, bool timed_out,
                                                                           Diagnostics& out) const {
  // An operation stopped by its timeout was not refused: it is still going on remotely, as
  // if the process had stopped watching it. A create is kept as an interrupted one (below,
  // without the warning: the timeout's error says it), so the next apply adopts the object
  // and waits for it rather than replacing it as a tainted one; an update leaves the prior
  // state, which the next plan refreshes.
  if (timed_out && op == OperationAction::Update) return std::nullopt;
  if (timed_out && op == OperationAction::Create) return StateAfter(c, Value::Null(), state::ResourceStatus::PendingCreate);
  // An update that failed part way: what the provider says the object now is stands, not
  // tainted (as Terraform does): the next plan refreshes it and updates what is left rather
  // than replacing an object that exists and worked before.
  if (op == OperationAction::Update && result.IsMapping()) return StateAfter(c, result);
  // A create that made an object which is not healthy: keep it, tainted, so the next plan
  // replaces it instead of losing it.
  if (op == OperationAction::Create && result.IsMapping()) return StateAfter(c, result, state::ResourceStatus::Tainted);
  // A create that failed without a definite answer may have made the object: keep the
  // instance pending with its token, as if the process had died here, so the next plan
  // looks for it instead of creating a second one. (A create_before_destroy replacement
  // deposed the object it replaces first, so the instance is free for the placeholder.)
  if (op != OperationAction::Create || !outcome_unknown) return std::nullopt;
  std::string address = c.addr.ToString();
  out.Add(Diagnostic{Severity::Warning, "Create outcome unknown",
                     fmt::format("The create of {} failed without a definite answer, so the object may exist. It "
                                 "stays in state as an interrupted create: the next plan and apply look for it by the "
                                 "type's create recovery (its client token, create tag or natural key) before "
                                 "creating anything.",
                                 address),
                     {}, address, ""});
  return StateAfter(c, Value::Null(), state::ResourceStatus::PendingCreate);
}

}  // namespace strata
