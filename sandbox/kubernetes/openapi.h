#pragma once
// The OpenAPI documents kubectl reads before it writes (/openapi/v3 and its group-version
// documents), as far as kubectl needs them.

#include <string>

#include "sandbox/kubernetes/api_types.h"

namespace strata::sandbox::k8s {

//! The document at `path` ("/openapi/v3", "/openapi/v3/apis/apps/v1"), or null.
Json OpenApiDocument(const ApiTypes& types, const std::string& path);

}  // namespace strata::sandbox::k8s
