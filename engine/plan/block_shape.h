#pragma once
// Which attributes the human plan draws as nested blocks ("+ vpc_config {") rather than as
// lists of objects ("+ vpc_config = [ { ... } ]"), as Terraform draws its providers' blocks.
// Strata's schemas type a block as list(object(...)) or set(object(...)); what Terraform's
// providers declare as blocks are exactly those that configuration can set (required or
// optional). Computed-only lists of objects (an EKS cluster's certificate_authority) stay
// attributes, as the SDK's computed nested resources do. Inside a block every list or set of
// objects is a block.

#include <string>
#include <vector>

#include "engine/value/schema.h"

namespace strata {

struct BlockShape {
  struct Member;
  //! The members drawn as blocks.
  std::vector<Member> blocks;

  //! Member `name`, when it is drawn as blocks; nullptr otherwise.
  const Member* Find(const std::string& name) const;
};

struct BlockShape::Member {
  std::string name;
  //! A set's blocks are matched by value, a list's by position.
  bool is_set = false;
  //! The shape of each block's contents.
  BlockShape shape;
};

//! The top-level shape of a type's values; no blocks for a null or dynamic schema.
BlockShape BlockShapeOf(const ResourceSchema* schema);

}  // namespace strata
