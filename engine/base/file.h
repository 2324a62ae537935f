#pragma once
// Reading a whole file, the one way every layer does it (module files, kubeconfig and
// credential files, key files, the file() function, saved-plan digests).

#include <optional>
#include <string>

namespace strata::base {

//! The file's bytes; nullopt when it cannot be opened or read (the caller says why to the
//! user: it knows what the file was for). errno is left as the failing call set it.
std::optional<std::string> ReadFile(const std::string& path);

}  // namespace strata::base
