#pragma once
// Tags as every AWS service of the provider has them: how default_tags fold into tags /
// tags_all, the XML tag lists the query services answer with, and the create-token tag,
// which every tag reader (ReadTagList here, EksTags in eks_api.h) keeps apart. The
// services' own wire forms (EC2's TagSpecification and CreateTags, IAM's Tags.member,
// EKS's JSON map) live with each service.

#include <map>
#include <string>
#include <vector>

#include <pugixml.hpp>

#include "engine/value/value.h"

namespace strata::aws {

using TagMap = std::map<std::string, std::string>;

//! The tag a create call sends (CreateRecovery::CreateTag types, and IAM types found by
//! name) holding the engine's idempotency token of that create: after an interruption,
//! recovery finds, or recognises, the object that create made by it. It is Strata's, not
//! the user's: the tag readers leave it out, so it is never part of `tags` / `tags_all`,
//! never in a plan's diff, and never removed by a tag update (which works from those).
inline constexpr const char* kCreateTokenTag = "strata:create-token";

//! `tags` plus the create-token tag holding `token`; `tags` as they are when it is empty.
TagMap WithCreateToken(TagMap tags, const std::string& token);

//! What a tag update from `from` to `to` sets: the tags of `to` that `from` lacks or holds
//! with another value.
TagMap ChangedTags(const TagMap& from, const TagMap& to);
//! What a tag update from `from` to `to` removes: the keys of `from` that `to` lacks.
std::vector<std::string> RemovedTagKeys(const TagMap& from, const TagMap& to);

//! default_tags overlaid with the resource's own tags (which win).
TagMap MergeTags(const TagMap& defaults, const TagMap& tags);
//! A map(string) value; {} for no tags.
Value TagsValue(const TagMap& tags);
//! The `tags` attribute of a read: the remote tags minus those that only come from
//! default_tags (same key and value, and not written in the prior `tags`); null when
//! nothing is left and the prior `tags` was null.
Value TagsForState(const TagMap& remote, const TagMap& defaults, const Value& prior_tags);

//! The tags of an AWS XML tag list — EC2's <tagSet><item><key/><value/></item>...,
//! IAM's <Tags><member><Key/><Value/></member>... — without the create-token tag, whose
//! value goes to `token` when given ("" when there is none).
TagMap ReadTagList(pugi::xml_node list, const char* entry, const char* key, const char* value,
                   std::string* token = nullptr);
}  // namespace strata::aws
