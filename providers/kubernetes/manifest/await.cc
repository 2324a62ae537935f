#include "providers/kubernetes/manifest/await.h"

#include <thread>

#include <fmt/format.h>

#include "engine/base/duration.h"
#include "providers/attributes.h"
#include "providers/kubernetes/client/json_fields.h"

namespace strata::kubernetes {
namespace {

using Clock = OperationContext::Clock;

constexpr auto kPoll = std::chrono::milliseconds(500);
constexpr auto kProgressEvery = std::chrono::seconds(10);

enum class PollEnd { Done, TimedOut, Stopped };

// Polls `step` until it says done, reporting `what` in progress lines; ends early when the
// time runs out, or the user stops the run.
template <typename Step>
PollEnd Poll(const OperationContext& ctx, std::chrono::nanoseconds timeout, const std::string& what, Step&& step) {
  auto start = Clock::now();
  auto until = start + std::chrono::duration_cast<Clock::duration>(timeout);
  if (ctx.deadline && *ctx.deadline < until) until = *ctx.deadline;
  auto next_progress = start + kProgressEvery;
  while (true) {
    std::string status;
    if (step(status)) return PollEnd::Done;
    if (ctx.StopRequested()) return PollEnd::Stopped;
    auto now = Clock::now();
    if (now >= until || ctx.Cancelled()) return PollEnd::TimedOut;
    if (now >= next_progress) {
      ctx.Progress(fmt::format("still {}... ({} elapsed): {}", what,
                               base::FormatDuration(now - start), status));
      next_progress = now + kProgressEvery;
    }
    std::this_thread::sleep_for(kPoll);
  }
}

// Whether a PVC's storage class binds its volume only when a pod uses it.
bool BindsOnFirstConsumer(KubeSession& session, const OperationContext& ctx, const Json& pvc) {
  std::string cls = StringAt(pvc.value("spec", Json::object()), "storageClassName");
  if (cls.empty()) return false;
  auto sc = session.client->Call(ctx, GetRequest("/apis/storage.k8s.io/v1/storageclasses/" + UrlEncode(cls)));
  return sc.ok() && StringAt(*sc, "volumeBindingMode") == "WaitForFirstConsumer";
}

}  // namespace

WaitFor ParseWait(const Value& wait, Diagnostics& diags) {
  WaitFor out;
  if (wait.IsNull() || !wait.IsKnown()) return out;
  if (wait.kind() == ValueKind::Bool) {
    out.rollout = wait.AsBool();
    return out;
  }
  if (wait.kind() != ValueKind::Object && wait.kind() != ValueKind::Map) {
    diags.Error("Invalid wait", "wait is false, true, or {rollout = bool, condition = {type, status}, fields = {path = value}}.");
    return out;
  }
  out.rollout = attrs::GetBool(wait, "rollout", !wait.AsMap().count("condition") && !wait.AsMap().count("fields"));
  Value condition = attrs::Get(wait, "condition");
  if (!condition.IsNull()) {
    std::string type = attrs::GetString(condition, "type");
    if (type.empty()) diags.Error("Invalid wait", "wait.condition needs a type, e.g. {type = \"Ready\", status = \"True\"}.");
    out.condition = std::make_pair(type, attrs::GetString(condition, "status", "True"));
  }
  out.fields = attrs::GetStringMap(wait, "fields");
  return out;
}

Timeouts ParseTimeouts(const Value& timeouts, Diagnostics& diags) {
  Timeouts out;
  for (auto [name, field] : {std::pair{"create", &out.create}, {"update", &out.update}, {"delete", &out.remove}}) {
    std::string text = attrs::GetString(timeouts, name);
    if (text.empty()) continue;
    auto d = base::ParseDuration(text);
    if (!d) {
      diags.Error("Invalid timeouts", fmt::format("timeouts.{} \"{}\" is not a duration: use e.g. 5m or 1h30m.", name, text));
      continue;
    }
    *field = *d;
  }
  return out;
}

Json AwaitReady(KubeSession& session, const OperationContext& ctx, const ResourceInfo& resource,
                const ObjectRef& target, const WaitFor& wait, std::chrono::nanoseconds timeout, Diagnostics& diags,
                const Json& applied) {
  // A claim's readiness depends on its storage class, read while polling.
  if (applied.is_object() && target.kind != "PersistentVolumeClaim" &&
      WaitState(applied, wait, false).readiness == Readiness::Ready)
    return applied;
  Json last;
  std::optional<bool> first_consumer;
  ReadinessState state;
  ApiRequest get = GetRequest(ObjectPath(resource, target.namespace_name, target.name));
  auto start = Clock::now();
  PollEnd end = Poll(ctx, timeout, "waiting for " + target.Describe(), [&](std::string& status) {
    auto answer = session.client->Call(ctx, get);
    if (!answer.ok()) {
      state = {Readiness::InProgress, answer.error().Describe()};
      status = state.message;
      return false;
    }
    last = *answer;
    if (!first_consumer && target.kind == "PersistentVolumeClaim") first_consumer = BindsOnFirstConsumer(session, ctx, last);
    state = WaitState(last, wait, first_consumer.value_or(false));
    status = state.message;
    return state.readiness != Readiness::InProgress;
  });
  if (state.readiness == Readiness::Failed) {
    diags.Error("Kubernetes object failed", fmt::format("{} failed: {}.", target.Describe(), state.message));
  } else if (end == PollEnd::Stopped) {
    diags.Warning("Not waited for",
                  fmt::format("{} was applied; the run was interrupted before it was ready ({}).", target.Describe(),
                              state.message));
  } else if (end == PollEnd::TimedOut) {
    diags.Error("Kubernetes object not ready",
                fmt::format("{} was applied but is not ready after {}: {}. Raise timeouts, or set wait = false "
                            "to apply without waiting.",
                            target.Describe(), base::FormatDuration(Clock::now() - start), state.message));
  }
  return last;
}

void AwaitGone(KubeSession& session, const OperationContext& ctx, const ResourceInfo& resource, const ObjectRef& target,
               std::chrono::nanoseconds timeout, Diagnostics& diags) {
  ApiRequest get = GetRequest(ObjectPath(resource, target.namespace_name, target.name));
  std::string holding;
  PollEnd end = Poll(ctx, timeout, "deleting " + target.Describe(), [&](std::string& status) {
    auto answer = session.client->Call(ctx, get);
    if (!answer.ok() && answer.error().IsNotFound()) return true;
    holding = answer.ok() ? "finalizers " + answer->value("metadata", Json::object()).value("finalizers", Json::array()).dump()
                          : answer.error().Describe();
    status = holding;
    return false;
  });
  if (end != PollEnd::Done) {
    diags.Error(end == PollEnd::Stopped ? "Kubernetes delete interrupted" : "Kubernetes delete did not finish",
                fmt::format("{} still exists after its delete ({}). Check what holds it (`kubectl get -o yaml`), "
                            "then run destroy again.",
                            target.Describe(), holding));
  }
}

}  // namespace strata::kubernetes
