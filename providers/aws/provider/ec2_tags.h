#pragma once
// EC2 tags: TagSpecification on create, <tagSet> on read, CreateTags/DeleteTags on update,
// and how default_tags fold into tags / tags_all.

#include <map>
#include <string>

#include <pugixml.hpp>

#include "engine/value/value.h"
#include "providers/aws/protocol/query_protocol.h"

namespace strata::aws {

using TagMap = std::map<std::string, std::string>;

//! default_tags overlaid with the resource's own tags (which win).
TagMap MergeTags(const TagMap& defaults, const TagMap& tags);
//! A map(string) value; {} for no tags.
Value TagsValue(const TagMap& tags);
//! The `tags` attribute of a read: the remote tags minus those that only come from
//! default_tags (same key and value, and not written in the prior `tags`); null when
//! nothing is left and the prior `tags` was null.
Value TagsForState(const TagMap& remote, const TagMap& defaults, const Value& prior_tags);

//! Adds TagSpecification.1.* for `resource_type` ("vpc", "subnet"); nothing when empty.
void AddTagSpecification(QueryRequest& call, const std::string& resource_type, const TagMap& tags);
//! The <tagSet> of an EC2 item.
TagMap ReadTagSet(pugi::xml_node item);

//! The CreateTags call setting what `to` adds or changes, the DeleteTags call removing
//! what `to` lacks; an empty action means nothing to do.
QueryRequest CreateTagsCall(const std::string& id, const TagMap& from, const TagMap& to);
QueryRequest DeleteTagsCall(const std::string& id, const TagMap& from, const TagMap& to);

}  // namespace strata::aws
