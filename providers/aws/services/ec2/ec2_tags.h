#pragma once
// EC2 tags on the wire: TagSpecification on create, <tagSet> on read, CreateTags /
// DeleteTags on update (what they mean: common/tags.h).

#include <string>

#include <pugixml.hpp>

#include "providers/aws/common/tags.h"
#include "providers/aws/protocol/query_protocol.h"

namespace strata::aws {

//! Adds TagSpecification.1.* for `resource_type` ("vpc", "subnet"); nothing when empty.
void AddTagSpecification(QueryRequest& call, const std::string& resource_type, const TagMap& tags);
//! The <tagSet> of an EC2 item, without the create-token tag.
TagMap ReadTagSet(pugi::xml_node item);

//! The CreateTags call setting what `to` adds or changes, the DeleteTags call removing
//! what `to` lacks; an empty action means nothing to do.
QueryRequest CreateTagsCall(const std::string& id, const TagMap& from, const TagMap& to);
QueryRequest DeleteTagsCall(const std::string& id, const TagMap& from, const TagMap& to);

}  // namespace strata::aws
