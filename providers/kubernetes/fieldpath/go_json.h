#pragma once
// JSON text as Go's encoding/json writes it, for the bytes Kubernetes puts in managedFields:
// compact, object keys sorted (byte order, as Go sorts map keys), and '<', '>', '&', U+2028
// and U+2029 escaped as \u003c… (Go's HTML-safe default, which json-iterator's
// ConfigCompatibleWithStandardLibrary — what structured-merge-diff uses — keeps).
// Also Go's %q quoting, which Kubernetes uses for strings in the paths of conflict messages.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace strata::kubernetes::fieldpath {

using Json = nlohmann::json;

//! `value` as compact JSON text, byte for byte as Go's encoding/json would write it.
std::string GoJson(const Json& value);

//! `text` quoted as Go's strconv.Quote (fmt's %q) writes it: "a\"b\n".
std::string GoQuote(std::string_view text);

}  // namespace strata::kubernetes::fieldpath
