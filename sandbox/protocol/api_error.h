#pragma once
// A refusal in AWS's terms: an HTTP status, an error code and a message. Handlers throw
// ApiError; the server catches it and renders it in the service's protocol
// (error_shapes.h). ErrorInfo is the same refusal as plain data, for refusals the front
// end makes before any service sees the call.

#include <stdexcept>
#include <string>

namespace strata::sandbox {

//! One refusal, before it is put into a protocol's shape.
struct ErrorInfo {
  int status = 400;
  std::string code;
  std::string message;
};

//! A refusal thrown by a handler. The server renders it in the service's protocol.
struct ApiError : std::runtime_error {
  ApiError(int status, std::string code, const std::string& message)
      : std::runtime_error(message), status(status), code(std::move(code)) {}
  int status;
  std::string
      code;  //!< "InvalidVpcID.NotFound", "DependencyViolation", "ResourceNotFoundException"

  ErrorInfo Info() const { return {status, code, what()}; }
};

}  // namespace strata::sandbox
