#pragma once
// Objects whose state changes with time (creating → available, updating, deleting → gone),
// computed from instants stored with the object and the request's clock, never from a
// background thread: a "lifecycle" member {"readyMs", "updatingUntilMs", "goneMs"} of the
// object's world document. (EKS keeps its own, richer one: services/eks/eks_common.h.)

#include <cstdint>

#include "sandbox/service.h"

namespace strata::sandbox {

enum class TimedPhase { Creating, Ready, Updating, Deleting, Gone };

//! A lifecycle that is Creating until `delay` from now, then Ready.
Json NewTimedLifecycle(const ServiceContext& ctx, Millis delay);
//! Where `lifecycle` is now.
TimedPhase TimedPhaseOf(const ServiceContext& ctx, const Json& lifecycle);
//! Updating from now until `delay` from now.
void BeginTimedUpdate(const ServiceContext& ctx, Json& lifecycle, Millis delay);
//! Deleting from now, gone `delay` from now.
void BeginTimedDelete(const ServiceContext& ctx, Json& lifecycle, Millis delay);

}  // namespace strata::sandbox
