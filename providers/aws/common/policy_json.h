#pragma once
// JSON documents that AWS keeps as strings — IAM and SQS policies, EventBridge patterns —
// compared by meaning, as Terraform's provider compares them: the text AWS answers with is
// rarely the text sent (keys reordered, whitespace dropped, ["x"] written "x").

#include <string>

#include "engine/value/value.h"

namespace strata::aws {

//! Whether two JSON documents mean the same: equal once single-element arrays are taken as
//! their element and arrays as unordered. Text that is not JSON compares as text.
bool PolicyEquivalent(const std::string& a, const std::string& b);

//! The document to keep in state: `prior`'s text (what the user wrote) when it means the
//! same as `remote`, else `remote`.
Value JsonDocumentForState(const std::string& remote, const Value& prior);

}  // namespace strata::aws
