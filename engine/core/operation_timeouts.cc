#include "engine/core/operation_timeouts.h"

#include <fmt/format.h>

#include "engine/base/duration.h"

namespace strata {

void SetDeadline(OperationContext& ctx, const std::map<std::string, std::string>& timeouts, state::OperationAction op) {
  auto it = timeouts.find(state::ToString(op));
  if (it == timeouts.end()) return;
  std::string error;
  // The loader and the plan file reader accept only durations that parse.
  std::optional<std::chrono::nanoseconds> d = base::ParseGoDuration(it->second, &error);
  if (!d) return;
  ctx.deadline = OperationContext::Clock::now() + std::chrono::duration_cast<OperationContext::Clock::duration>(*d);
}

bool RanOutOfTime(const OperationContext& ctx, const Diagnostics& diags) {
  // Clients give up a little early: a request whose answer could not come in time, a wait
  // whose last sleep rounded down.
  constexpr auto kEarly = std::chrono::milliseconds(100);
  return diags.HasErrors() && ctx.deadline && OperationContext::Clock::now() + kEarly >= *ctx.deadline;
}

Diagnostics TimeoutDiagnostics(const std::string& address, const std::map<std::string, std::string>& timeouts,
                               state::OperationAction op, const Diagnostics& diags, const std::string& next) {
  const char* name = state::ToString(op);
  auto it = timeouts.find(name);
  std::string limit = it == timeouts.end() ? "" : it->second;
  Diagnostics out;
  std::string said;
  for (const Diagnostic& d : diags) {
    if (d.severity != Severity::Error) {
      out.Add(d);
      continue;
    }
    said += (said.empty() ? "" : " ") + d.summary + (d.detail.empty() ? "." : ": " + d.detail);
  }
  Diagnostic timed_out;
  timed_out.summary = fmt::format("{}: {} did not finish within the {} timeout (timeouts.{})", address, name, limit, name);
  timed_out.detail = fmt::format("The provider said: {} {} Raise timeouts.{} if the {} needs longer.", said, next, name, name);
  timed_out.address = address;
  out.Add(std::move(timed_out));
  return out;
}

}  // namespace strata
