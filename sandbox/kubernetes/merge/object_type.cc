#include "sandbox/kubernetes/merge/object_type.h"

namespace strata::sandbox::k8s {

const TypeNode* TypeNode::Member(const std::string& name) const {
  auto it = fields.find(name);
  if (it != fields.end()) return it->second;
  return elements ? elements : UntypedNode();
}

const TypeNode* UntypedNode() {
  static const TypeNode untyped;  // Kind::kUntyped; immutable, so sharing it is safe
  return &untyped;
}

ObjectType ObjectType::WithResetFields(kubernetes::fieldpath::Set fields) const {
  ObjectType copy = *this;
  copy.reset_fields_ = std::move(fields);
  return copy;
}

ObjectType ObjectType::WithStatusReset() const {
  kubernetes::fieldpath::Set status;
  status.Insert(kubernetes::fieldpath::MakeFieldPath({"status"}));
  return WithResetFields(std::move(status));
}

}  // namespace strata::sandbox::k8s
