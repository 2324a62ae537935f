#pragma once
// Tags on EC2 objects: set at creation through TagSpecification.N, changed through
// CreateTags / DeleteTags on any kind, and written back as <tagSet>.

#include <pugixml.hpp>

#include "sandbox/services/ec2/ec2_store.h"

namespace strata::sandbox {

//! The tags the call's TagSpecification.N give `resource_type` ("vpc"), as a JSON object.
//! A specification for another resource type is refused with InvalidParameterValue.
Json TagsFromSpecifications(const Ec2Call& call, const std::string& resource_type);

//! The tags of "<prefix>.N.Key" / "<prefix>.N.Value" ("TagSpecification.1.Tag"), as a JSON
//! object; a key EC2 refuses (empty, too long, "aws:") is refused.
Json TagsUnder(const Ec2Call& call, const std::string& prefix);

//! Appends <tagSet><item><key/><value/></item>...</tagSet>.
void WriteTagSet(pugi::xml_node parent, const Json& object);

}  // namespace strata::sandbox
