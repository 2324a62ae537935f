#pragma once
// One step of a field path, as structured-merge-diff (the engine behind Kubernetes'
// server-side apply) names it, and the order and text forms Kubernetes uses for it:
//
//   kind   selects                                  FieldsV1 key            human form
//   field  a member of an object                    f:replicas              .replicas
//   key    the item of a map-list with these keys   k:{"name":"nginx"}      [name="nginx"]
//   value  the item of a set-list equal to this     v:"finalizer.io/x"      [="finalizer.io/x"]
//   index  the item at this position                i:0                     [0]
//
// Order (what FieldsV1 objects and conflict lists follow): every field before every key,
// keys before values, values before indices; fields by name, keys field by field (name,
// then value), values by structured-merge-diff's value order (numbers, numerically, then
// strings, booleans, lists, objects, null), indices numerically.

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/base/result.h"

namespace strata::kubernetes::fieldpath {

using Json = nlohmann::json;

//! structured-merge-diff's total order of JSON values (value.Compare): <0, 0 or >0.
int CompareValues(const Json& a, const Json& b);

class PathElement {
 public:
  enum class Kind { kField, kKey, kValue, kIndex };

  static PathElement Field(std::string name);
  //! `fields`: an object of the key fields' names and values (e.g. {"containerPort":80,
  //! "protocol":"TCP"}); not empty.
  static PathElement Key(Json fields);
  static PathElement Value(Json value);
  static PathElement Index(int index);

  Kind kind() const { return kind_; }
  //! The field name (kField).
  const std::string& field() const { return field_; }
  //! The key fields (kKey, an object) or the value (kValue).
  const Json& json() const { return json_; }
  int index() const { return index_; }

  //! <0, 0, >0 in the order described above.
  int Compare(const PathElement& other) const;
  bool operator==(const PathElement& other) const { return Compare(other) == 0; }
  bool operator<(const PathElement& other) const { return Compare(other) < 0; }

  //! The FieldsV1 key: "f:name", `k:` + compact JSON with sorted keys, `v:` + JSON, "i:3".
  std::string Serialize() const;
  //! Reads a FieldsV1 key. Errors name the key. A key of an unknown kind ("x:…") is an
  //! error here; FieldsV1 parsing skips such keys, as Kubernetes does.
  static base::Result<PathElement, std::string> Parse(std::string_view text);
  //! The human form Kubernetes prints in conflicts: ".name", "[name=\"nginx\"]",
  //! "[containerPort=80,protocol=\"TCP\"]", "[=\"x\"]", "[0]".
  std::string ToString() const;

 private:
  PathElement(Kind kind, std::string field, Json json, int index)
      : kind_(kind), field_(std::move(field)), json_(std::move(json)), index_(index) {}

  Kind kind_;
  std::string field_;
  Json json_;
  int index_;
};

//! A path from the object's root: [f:spec, f:template, f:spec, f:containers, k:{...}, f:image].
using Path = std::vector<PathElement>;

//! The human form of a whole path, as Kubernetes prints it in conflict errors:
//! ".spec.template.spec.containers[name=\"nginx\"].image".
std::string PathString(const Path& path);

//! Builds a path of field names: MakeFieldPath({"spec", "replicas"}).
Path MakeFieldPath(std::initializer_list<std::string_view> fields);

}  // namespace strata::kubernetes::fieldpath
