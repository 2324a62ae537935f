#pragma once
// The schema-driven walks of server-side apply over JSON objects, after
// structured-merge-diff's typed package: an object's field set, the merge of an applied
// configuration into the live object, the comparison of two versions, and the removal of
// fields a manager stopped applying.

#include "providers/kubernetes/fieldpath/set.h"
#include "sandbox/kubernetes/merge/object_type.h"

namespace strata::sandbox::k8s {

namespace fieldpath = kubernetes::fieldpath;

//! The path element of a list item: k:{keys} in a map-list (a key the item omits takes the
//! schema's default, and a "protocol" key "TCP", as kube-apiserver's schema defaults it),
//! v:item in a set, i:index otherwise.
fieldpath::PathElement ListItemElement(const TypeNode* list, const Json& item, int index);

//! Every field `value` sets, as structured-merge-diff's ToFieldSet: scalars, atomic maps and
//! lists, list items, members of maps that are not named struct fields, and members whose
//! value is null or an empty object. Named struct fields with content are not members.
fieldpath::Set ToFieldSet(const TypeNode* type, const Json& value);

//! `config` merged into `live`: granular objects member by member, map-lists and sets item by
//! item (keeping live's order for items config does not mention, config's order otherwise),
//! everything atomic replaced by config's value.
Json Merge(const TypeNode* type, const Json& live, const Json& config);

//! What changed from `before` to `after`: leaves added, modified (different value) or
//! removed, plus every granular node (object member, list item) added or removed.
struct Comparison {
  fieldpath::Set added;
  fieldpath::Set modified;
  fieldpath::Set removed;
};
Comparison Compare(const TypeNode* type, const Json* before, const Json* after);

//! Removes from `value` what the applying manager's previous set `last` held and no manager
//! (the applier's new set included) still owns, in `owned`: such a field or list item goes
//! with everything beneath it, unless something beneath it is owned, in which case only the
//! unowned fields of `last` beneath it go. A granular container left empty goes too.
void RemoveReleased(const TypeNode* type, Json& value, const fieldpath::Set& last, const fieldpath::Set& owned);

//! Removes object members whose value is null, at every depth (kube-apiserver drops them
//! when it decodes into its typed objects).
void DropNulls(Json& value);

}  // namespace strata::sandbox::k8s
