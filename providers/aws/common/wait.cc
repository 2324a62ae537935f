#include "providers/aws/common/wait.h"

#include <algorithm>

namespace strata::aws {
namespace {

constexpr Duration kWaitFirstDelay{250};
constexpr Duration kWaitLongestDelay{10000};

std::string WaitElapsed(Duration d) {
  auto s = std::chrono::duration_cast<std::chrono::seconds>(d).count();
  return s >= 60 ? std::to_string(s / 60) + "m" + std::to_string(s % 60) + "s" : std::to_string(s) + "s";
}

//! Why a wait must stop now, or "".
std::string WaitStopReason(const OperationContext& ctx, Duration elapsed, Duration max_wait) {
  if (ctx.Cancelled()) return "cancelled";
  if (ctx.DeadlinePassed()) return "timed out";
  if (!ctx.deadline && elapsed >= max_wait) return "timed out after " + WaitElapsed(max_wait);
  return "";
}

}  // namespace

Diagnostics WaitFor(const AwsSession& session, const OperationContext& ctx, const std::string& what,
                    const std::function<WaitPoll()>& poll, Duration max_wait) {
  Clock& clock = *session.client->deps().clock;
  TimePoint start = clock.Now();
  Duration delay = kWaitFirstDelay;
  for (int looks = 1;; ++looks) {
    WaitPoll seen = poll();
    if (seen.diags.HasErrors() || seen.done) return seen.diags;
    Duration elapsed = std::chrono::duration_cast<Duration>(clock.Now() - start);
    std::string stop = WaitStopReason(ctx, elapsed, max_wait);
    if (!stop.empty()) {
      Diagnostics diags;
      diags.Error("Wait " + stop, "Stopped waiting for " + what + " after " + WaitElapsed(elapsed) +
                                      " (last status: " + (seen.status.empty() ? "unknown" : seen.status) + ").");
      return diags;
    }
    if (looks > 1) {
      ctx.Progress("still waiting for " + what + " (" + seen.status + ", " + WaitElapsed(elapsed) + " elapsed)");
    }
    ctx.Log(LogLevel::Debug, "waiting for " + what + ": " + seen.status);
    if (ctx.deadline) {
      // Rounded up, so the last look is at the deadline, not just short of it.
      auto left = std::chrono::ceil<Duration>(*ctx.deadline - OperationContext::Clock::now());
      delay = std::max(Duration(0), std::min(delay, left));
    }
    clock.SleepFor(delay);
    delay = std::min(delay * 2, kWaitLongestDelay);
  }
}

Diagnostics WaitUntilListed(const AwsSession& session, const OperationContext& ctx,
                            const std::string& what, const std::function<ReadResult()>& read) {
  return WaitFor(
      session, ctx, what,
      [&] {
        ReadResult r = read();
        WaitPoll poll;
        poll.done = !r.gone;
        poll.status = r.gone ? "not yet listed" : "listed";
        poll.diags = r.diags;
        return poll;
      },
      kPropagationWait);
}

}  // namespace strata::aws
