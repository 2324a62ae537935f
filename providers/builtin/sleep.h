#pragma once
// A sleep that an operation can interrupt: time_sleep waits through it so that a
// cancellation or the operation's deadline ends the wait, and a long wait reports progress.
//
// Contract: sleeps on `clock` in steps of at most 50 ms (so a cancellation is seen within
// one step), checking ctx before each step. Calls on_tick(elapsed) at every multiple of
// `tick` short of the end. Returns true when it slept the full `d`, false when ctx was
// cancelled or its deadline passed first. With a FakeClock the steps take no real time.

#include <functional>

#include "engine/base/clock.h"
#include "providers/provider.h"

namespace strata::builtin {

bool SleepWithProgress(base::Clock& clock, const OperationContext& ctx, base::Clock::Duration d,
                       base::Clock::Duration tick,
                       const std::function<void(base::Clock::Duration elapsed)>& on_tick);

}  // namespace strata::builtin
