#include "engine/plan/block_shape.h"

namespace strata {

namespace {

bool IsObjectCollection(const Type& type) {
  return (type.kind() == Type::Kind::List || type.kind() == Type::Kind::Set) &&
         type.element().kind() == Type::Kind::Object;
}

// The shape inside one block of object type `object`.
BlockShape ShapeInside(const Type& object) {
  BlockShape shape;
  for (const auto& [name, member] : object.attributes()) {
    if (!IsObjectCollection(member.type)) continue;
    shape.blocks.push_back({name, member.type.kind() == Type::Kind::Set, ShapeInside(member.type.element())});
  }
  return shape;
}

}  // namespace

const BlockShape::Member* BlockShape::Find(const std::string& name) const {
  for (const Member& member : blocks) {
    if (member.name == name) return &member;
  }
  return nullptr;
}

BlockShape BlockShapeOf(const ResourceSchema* schema) {
  BlockShape shape;
  if (schema == nullptr || schema->dynamic) return shape;
  for (const auto& [name, attribute] : schema->attributes) {
    bool settable = attribute.required || attribute.optional;
    if (!settable || !IsObjectCollection(attribute.type)) continue;
    shape.blocks.push_back({name, attribute.type.kind() == Type::Kind::Set, ShapeInside(attribute.type.element())});
  }
  return shape;
}

}  // namespace strata
