#pragma once
// The API catalog's JSON text (sandbox/kubernetes/api_catalog.json, written by
// scripts/k8s_api_catalog.py from Kubernetes v1.31's swagger.json), compiled in at build
// time (embed_catalog.cmake) so the sandbox never reads ../shared at run time.

namespace strata::sandbox::k8s {

//! The catalog, NUL-terminated; lives for the whole program.
const char* ApiCatalogText();

}  // namespace strata::sandbox::k8s
