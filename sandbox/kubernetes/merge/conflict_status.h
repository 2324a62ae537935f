#pragma once
// The 409 body kube-apiserver sends when an apply conflicts (a metav1.Status; its
// NewConflictError and errors.NewApplyConflict):
//
//   {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
//    "message":"Apply failed with 1 conflict: conflict with \"kubectl\" using apps/v1: .spec.replicas",
//    "reason":"Conflict","details":{"causes":[{"reason":"FieldManagerConflict",
//    "message":"conflict with \"kubectl\" using apps/v1","field":".spec.replicas"}]},"code":409}
//
// (A StatusCause's type is written under "reason".) Several conflicts: "Apply failed with N
// conflicts: " and, per manager in name order, "conflicts with <manager>:" and "- <path>"
// lines joined by "\n".

#include <vector>

#include "sandbox/kubernetes/merge/server_side_apply.h"

namespace strata::sandbox::k8s {

//! How a conflict names its manager: "\"mgr\"", plus " with subresource \"scale\"", plus for
//! Update entries " using apps/v1" and, when `with_time` and the time is known, " at <time>".
//! kube-apiserver's own messages carry no time: the manager identity it prints from has
//! none.
std::string ConflictManagerText(const Conflict& conflict, bool with_time = false);

//! The Status object for `conflicts` (not empty).
Json ConflictStatus(const std::vector<Conflict>& conflicts);

}  // namespace strata::sandbox::k8s
