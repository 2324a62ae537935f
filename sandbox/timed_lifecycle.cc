#include "sandbox/timed_lifecycle.h"

namespace strata::sandbox {

namespace {

int64_t NowMillis(const ServiceContext& ctx) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(ctx.now.time_since_epoch()).count();
}

int64_t MemberMs(const Json& lifecycle, const char* member) {
  auto it = lifecycle.find(member);
  return it == lifecycle.end() || !it->is_number() ? 0 : it->get<int64_t>();
}

}  // namespace

Json NewTimedLifecycle(const ServiceContext& ctx, Millis delay) {
  return Json{{"readyMs", NowMillis(ctx) + delay.count()}};
}

TimedPhase TimedPhaseOf(const ServiceContext& ctx, const Json& lifecycle) {
  int64_t now = NowMillis(ctx);
  if (lifecycle.contains("goneMs")) return now >= MemberMs(lifecycle, "goneMs") ? TimedPhase::Gone : TimedPhase::Deleting;
  if (now < MemberMs(lifecycle, "readyMs")) return TimedPhase::Creating;
  if (now < MemberMs(lifecycle, "updatingUntilMs")) return TimedPhase::Updating;
  return TimedPhase::Ready;
}

void BeginTimedUpdate(const ServiceContext& ctx, Json& lifecycle, Millis delay) {
  lifecycle["updatingUntilMs"] = NowMillis(ctx) + delay.count();
}

void BeginTimedDelete(const ServiceContext& ctx, Json& lifecycle, Millis delay) {
  lifecycle["goneMs"] = NowMillis(ctx) + delay.count();
}

}  // namespace strata::sandbox
