#pragma once
// Failures as kube-apiserver answers them: a metav1.Status with the code, reason, message
// and details kube writes for the same failure (k8s.io/apimachinery/pkg/api/errors), so
// that kubectl and client libraries recognise them. Handlers throw KubeError; the server
// renders its status and rolls the request's writes back.

#include <stdexcept>
#include <string>
#include <vector>

#include "sandbox/kubernetes/resource_type.h"

namespace strata::sandbox::k8s {

//! A failure answered with `status` (a metav1.Status) and its code.
class KubeError : public std::runtime_error {
 public:
  explicit KubeError(Json status)
      : std::runtime_error(status.value("message", std::string())), status_(std::move(status)) {}
  const Json& status() const { return status_; }
  int code() const { return status_.value("code", 500); }

 private:
  Json status_;
};

//! One field error of a 422 Invalid ("metadata.name", FieldValueInvalid, "Invalid value: ...").
struct FieldCause {
  std::string field;
  std::string reason;   //!< "FieldValueInvalid", "FieldValueRequired", ...
  std::string message;  //!< "Invalid value: \"Foo\": a lowercase RFC 1123 ..."
};

//! The Status body: {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",...}.
//! `details` is left out when null.
Json FailureStatus(int code, const std::string& reason, const std::string& message,
                   const Json& details = nullptr);

//! 404 for a missing object: `deployments.apps "web" not found`.
KubeError NotFound(const std::string& group, const std::string& plural, const std::string& name);
//! 404 for a path that names no served resource type (details empty, unlike NotFound).
KubeError UnknownResource();
//! 409 on create: `configmaps "x" already exists`.
KubeError AlreadyExists(const ResourceType& type, const std::string& name);
//! 409 for a stale resourceVersion: `Operation cannot be fulfilled on configmaps "x": the
//! object has been modified; please apply your changes to the latest version and try again`.
KubeError UpdateConflict(const ResourceType& type, const std::string& name, const std::string& why);
//! 422: `ConfigMap "Foo" is invalid: metadata.name: Invalid value: ...` ([a, b] for several).
KubeError Invalid(const ResourceType& type, const std::string& name, const std::vector<FieldCause>& causes);
//! 400 with `message`.
KubeError BadRequest(const std::string& message);
//! 405: the resource type does not support the verb.
KubeError MethodNotSupported(const ResourceType& type, const std::string& verb);
//! 403 on create in a namespace being deleted.
KubeError NamespaceTerminating(const ResourceType& type, const std::string& name, const std::string& ns);
//! 415 for a body type the verb does not take.
KubeError UnsupportedMediaType();

}  // namespace strata::sandbox::k8s
