#pragma once
// The part of an object that a set of fields covers — what a field manager "has an opinion
// about". The provider compares only these values, so a field another manager owns never
// shows as drift (structured-merge-diff's ExtractItems, without a schema: the path
// elements themselves say how to find list items).

#include "providers/kubernetes/fieldpath/set.h"

namespace strata::kubernetes::fieldpath {

//! The values of `object` at the paths of `set`: objects keep only the members the set
//! names; a list keeps the items a k:/v:/i: element selects, in the object's order. A member
//! with nothing beneath it in the set brings its whole value; one with children brings
//! only those (an empty object or list when none of them is present). Paths the object
//! does not have are skipped. An empty set gives an empty object.
Json ExtractFields(const Json& object, const Set& set);

//! True when `item` (a list item) is the one `element` selects: a k: element when every key
//! field is equal, a v: element when the item equals it. Index elements are matched by
//! position by the caller.
bool ListItemMatches(const Json& item, const PathElement& element);

}  // namespace strata::kubernetes::fieldpath
