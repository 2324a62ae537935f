#pragma once
// The OpenAPI documents kubectl reads before it writes (/openapi/v3 and its group-version
// documents), as far as kubectl needs them.

#include <string>

#include "sandbox/kubernetes/api_types.h"

namespace strata::sandbox::k8s {

//! The document at `path` ("/openapi/v3", "/openapi/v3/apis/apps/v1", "/openapi/v2"), or
//! null.
Json OpenApiDocument(const ApiTypes& types, const std::string& path);

//! /openapi/v2 as kubectl before 1.28 reads it: gnostic's openapi.v2.Document in protobuf
//! (asked for as application/com.github.proto-openapi.spec.v2@v1.0+protobuf), with the same content as
//! OpenApiDocument's "/openapi/v2": each resource's PATCH operation, its kind and its
//! query parameters, from which kubectl decides that the server validates fields.
std::string OpenApiV2Protobuf(const ApiTypes& types);

}  // namespace strata::sandbox::k8s
