#pragma once
// Renders a Value the way `terraform console` and plan output show it:
//   "text", 42, true, null, tolist([...]), toset([...]), tomap({...}), [...], {...},
//   (known after apply), (sensitive value).

#include <string>

#include "engine/value/value.h"

namespace strata {

struct FormatOptions {
  int indent = 0;             // starting indentation (spaces)
  bool reveal_sensitive = false;
};

std::string FormatValue(const Value& v, const FormatOptions& options = {});
//! A string literal with HCL escapes ("a\nb", "${" written as "$${").
std::string QuoteString(const std::string& s);
//! An object key as written in HCL: bare if it is an identifier, quoted otherwise.
std::string FormatKey(const std::string& key);

}  // namespace strata
