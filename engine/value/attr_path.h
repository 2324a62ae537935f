#pragma once
// Attribute paths: a place inside a resource's value — `tags["env"]`, `rules[0].cidr`. Plans
// name the attributes that force a replacement with them, providers the parts someone else
// owns, diagnostics the attribute they point at; ValueAtPath reads the part a path names.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/value/value.h"

namespace strata {

//! One step of an attribute path: an attribute name, a map key or a list index.
struct PathStep {
  enum class Kind { Attr, Key, Index };
  Kind kind = Kind::Attr;
  std::string name;  // Attr and Key
  int64_t index = 0;  // Index

  static PathStep Attr(std::string n) { return {Kind::Attr, std::move(n), 0}; }
  static PathStep Key(std::string k) { return {Kind::Key, std::move(k), 0}; }
  static PathStep Index(int64_t i) { return {Kind::Index, {}, i}; }
  bool operator==(const PathStep&) const = default;
  auto operator<=>(const PathStep&) const = default;
};

//! A path into a resource's value: tags["env"], rules[0].cidr.
struct AttrPath {
  std::vector<PathStep> steps;

  AttrPath() = default;
  AttrPath(std::initializer_list<PathStep> s) : steps(s) {}
  //! A path of one attribute name.
  static AttrPath Of(std::string attr) { return AttrPath{PathStep::Attr(std::move(attr))}; }
  AttrPath Child(PathStep step) const;
  AttrPath Attr(std::string n) const { return Child(PathStep::Attr(std::move(n))); }
  AttrPath Key(std::string k) const { return Child(PathStep::Key(std::move(k))); }
  AttrPath Index(int64_t i) const { return Child(PathStep::Index(i)); }
  bool empty() const { return steps.empty(); }
  //! True if `other` starts with this path (a path is a prefix of itself).
  bool IsPrefixOf(const AttrPath& other) const;
  //! `tags["env"]`, `rules[0].cidr`; the first step is never dotted.
  std::string ToString() const;
  //! Parses what ToString prints (and `tags.env` for a key written as an attribute);
  //! nullopt on a syntax error.
  static std::optional<AttrPath> Parse(const std::string& text);

  bool operator==(const AttrPath&) const = default;
  auto operator<=>(const AttrPath&) const = default;
};

//! The value at `path` in `v`, or null when the path does not exist.
Value ValueAtPath(const Value& v, const AttrPath& path);

}  // namespace strata
