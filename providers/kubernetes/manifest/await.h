#pragma once
// The waits of kubernetes_manifest: after an apply, until the object is ready (readiness.h)
// or has failed; after a delete, until it is gone (finalizers, a namespace emptying). Both
// poll the object, report progress about every 10 s, and stop at the timeout, the
// operation's deadline or a cancellation.

#include <chrono>

#include "engine/diag/diagnostic.h"
#include "engine/value/value.h"
#include "providers/kubernetes/client/kube_session.h"
#include "providers/kubernetes/client/object_ref.h"
#include "providers/kubernetes/manifest/readiness.h"

namespace strata::kubernetes {

struct Timeouts {
  std::chrono::nanoseconds create = std::chrono::minutes(10);
  std::chrono::nanoseconds update = std::chrono::minutes(10);
  std::chrono::nanoseconds remove = std::chrono::minutes(10);
};

//! `wait` as written: false (nothing), true or null (the rollout), or
//! {rollout = bool, condition = {type, status}, fields = {path = value}}. Errors say what is allowed.
WaitFor ParseWait(const Value& wait, Diagnostics& diags);
//! `timeouts` as written: {create, update, delete} Go durations ("5m").
Timeouts ParseTimeouts(const Value& timeouts, Diagnostics& diags);

//! Waits until `target` satisfies `wait`; the object as last read, or errors in `diags`.
//! `applied` is the object as the apply answered: when it satisfies `wait` already (a
//! ConfigMap, a Role: most kinds have nothing to wait for), nothing more is read.
Json AwaitReady(KubeSession& session, const OperationContext& ctx, const ResourceInfo& resource,
                const ObjectRef& target, const WaitFor& wait, std::chrono::nanoseconds timeout, Diagnostics& diags,
                const Json& applied = nullptr);

//! Waits until `target` no longer exists.
void AwaitGone(KubeSession& session, const OperationContext& ctx, const ResourceInfo& resource, const ObjectRef& target,
               std::chrono::nanoseconds timeout, Diagnostics& diags);

}  // namespace strata::kubernetes
