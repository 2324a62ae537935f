#pragma once
// Request bodies in YAML (server-side apply's application/apply-patch+yaml; JSON is YAML)
// read into JSON as kube's decoder reads them: plain scalars that YAML 1.1 would type
// (true, 3, 1.5, null) become booleans, numbers and null; quoted scalars stay strings.

#include <string>

#include <nlohmann/json.hpp>

namespace strata::sandbox::k8s {

//! The document in `text`. Throws std::runtime_error with yaml-cpp's message (line and
//! column) when it is not YAML or holds more than one document.
nlohmann::json ParseYamlBody(const std::string& text);

}  // namespace strata::sandbox::k8s
