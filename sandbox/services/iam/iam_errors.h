#pragma once
// IAM's error codes and their HTTP statuses, as the IAM API reference lists them.

#include <string>

#include "sandbox/service.h"

namespace strata::sandbox::iam {

inline ApiError NoSuchEntity(const std::string& message) {
  return ApiError(404, "NoSuchEntity", message);
}
inline ApiError EntityAlreadyExists(const std::string& message) {
  return ApiError(409, "EntityAlreadyExists", message);
}
inline ApiError DeleteConflict(const std::string& message) {
  return ApiError(409, "DeleteConflict", message);
}
inline ApiError LimitExceeded(const std::string& message) {
  return ApiError(409, "LimitExceeded", message);
}
inline ApiError MalformedPolicyDocument(const std::string& message) {
  return ApiError(400, "MalformedPolicyDocument", message);
}
inline ApiError InvalidInput(const std::string& message) {
  return ApiError(400, "InvalidInput", message);
}
inline ApiError UnmodifiableEntity(const std::string& message) {
  return ApiError(400, "UnmodifiableEntity", message);
}

}  // namespace strata::sandbox::iam
