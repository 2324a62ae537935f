#pragma once
// IAM tags on a stored object: kept as "Tags": [{"Key": k, "Value": v}, ...] in the order
// keys were first set, at most 50, written as <Tags><member><Key/><Value/></member></Tags>.

#include <string>
#include <vector>

#include <pugixml.hpp>

#include "sandbox/services/iam/iam_call.h"

namespace strata::sandbox::iam {

//! How tag keys compare: roles (and users) ignore case, other IAM objects don't.
enum class TagKeys { CaseSensitive, CaseInsensitive };

//! Adds `tags` to `object`, replacing the value of keys it has; LimitExceeded beyond 50.
void SetTags(Json& object, const std::vector<QueryTag>& tags, TagKeys keys);
//! Removes the tags with `keys`; absent keys are ignored.
void RemoveTags(Json& object, const std::vector<std::string>& keys, TagKeys compare);
//! The Tags.member.<n> parameter of a Tag* action, which must be present.
std::vector<QueryTag> RequiredTags(const AwsQueryParams& params);
//! The TagKeys.member.<n> parameter (at most 50 keys).
std::vector<std::string> TagKeysParam(const AwsQueryParams& params);

//! Writes <Tags> under `parent` when `object` has tags (Get* answers omit empty tags).
void WriteTags(pugi::xml_node parent, const Json& object);
//! A List*Tags answer: <Tags> (always present) paginated, IsTruncated, Marker.
void WriteTagPage(IamCall& call, const Json& object);

}  // namespace strata::sandbox::iam
