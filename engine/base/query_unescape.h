#pragma once
// Go's url.QueryUnescape, which both Terraform's urldecode and the EKS token's query string
// (read by the sandbox as aws-iam-authenticator reads it) use: '+' is a space and %XX a
// byte; a '%' not followed by two hex digits is an error.

#include <optional>
#include <string>
#include <string_view>

namespace strata::base {

//! The unescaped bytes, or nullopt with `bad_at` (when given) set to the offset of the
//! malformed escape. Bytes are not checked to be UTF-8.
std::optional<std::string> QueryUnescape(std::string_view s, size_t* bad_at = nullptr);

}  // namespace strata::base
