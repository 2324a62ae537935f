#pragma once
// Why a Kubernetes API call failed: no answer (connection refused, TLS, a timeout), or the
// server's metav1.Status (400 invalid with causes, 403, 404, 409 conflicts, 422, 429, 5xx),
// read into one value the provider turns into a diagnostic.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace strata::kubernetes {

//! One entry of a Status's details.causes: a field and what is wrong with it.
struct StatusCause {
  std::string type;     //!< "FieldValueInvalid", "FieldManagerConflict", ...
  std::string field;    //!< ".spec.replicas", "spec.template.spec.containers[0].image"
  std::string message;  //!< "conflict with \"kubectl\"", "Invalid value: ..."
};

struct ApiError {
  //! 0: no HTTP answer was received (`message` says why: refused, TLS, timed out).
  int http_status = 0;
  //! Status.reason: "NotFound", "Conflict", "Invalid", "Forbidden", "AlreadyExists", ...
  std::string reason;
  std::string message;
  std::vector<StatusCause> causes;
  //! Status.details.kind / group when the server named the object's type.
  std::string details_kind;
  std::string details_group;
  //! Retry-After (429, some 5xx), in seconds.
  std::optional<int> retry_after_seconds;
  //! The request may have been carried out although no answer came (lost connection,
  //! timeout after sending).
  bool outcome_unknown = false;

  bool IsNotFound() const { return http_status == 404; }
  //! 409 with FieldManagerConflict causes: server-side apply met another field manager.
  bool IsFieldManagerConflict() const;
  //! A one-paragraph description: status, reason, message and each cause.
  std::string Describe() const;
};

//! The error for an HTTP answer that is not 2xx: the Status body when there is one, else
//! the status code and the start of the body.
ApiError ParseStatusError(int http_status, const std::string& body, const std::optional<std::string>& retry_after);

}  // namespace strata::kubernetes
