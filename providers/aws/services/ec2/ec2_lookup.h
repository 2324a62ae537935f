#pragma once
// What EC2's lookup data sources (data "aws_vpc", "aws_subnets", "aws_security_group")
// share, as Terraform's provider does them: `filter` blocks ({name, values}) and a `tags`
// map become Describe* filters ("tag:<key>"), arguments become filters of their own; a
// single-object lookup must match exactly one object, and its attributes are then the
// managed type's own (read through that type, so both agree).

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/ec2/ec2_api.h"

namespace strata::aws {

//! The schema of a lookup's `filter` blocks: list(object({name=string, values=set(string)})).
inline constexpr const char* kEc2FilterType = "list(object({name=string, values=set(string)}))";

//! Describe* filters: `config`'s filter blocks, its `tags` (one filter per tag), then
//! `extra` (name, value) pairs, numbered from 1.
void AddLookupFilters(QueryRequest& call, const Value& config, const std::vector<std::pair<std::string, std::string>>& extra);

//! One item of a Describe* answer: the text of the child elements asked for.
using LookupItem = std::map<std::string, std::string>;
//! The `elements` ("vpcId", "isDefault") of every item of `item_set` ("vpcSet") in all pages
//! of `call` (NextToken).
Result<std::vector<LookupItem>> LookupItems(const AwsSession& session, const OperationContext& ctx, QueryRequest call,
                                            const std::string& item_set, const std::vector<std::string>& elements);
//! The one item of `items`; else nullptr and Terraform's error in `diags`: "no matching EC2
//! VPC found" / "multiple EC2 VPCs matched; use additional constraints to reduce matches to
//! a single EC2 VPC" (`what`: "EC2 VPC"), naming the data source `type`.
const LookupItem* ExactlyOne(const std::vector<LookupItem>& items, const std::string& type, const std::string& what,
                             Diagnostics& diags);
//! A managed type's schema as a data source's: every attribute computed only.
ResourceSchema LookupSchema(ResourceSchema managed);

//! A single-object lookup's state: `managed`'s Read of the object `id` (its attributes),
//! with the lookup's own arguments (`args`, as configured) on top.
ReadResult LookupState(ResourceType& managed, const OperationContext& ctx, const std::string& id, const Value& config,
                       const std::vector<std::string>& args);

}  // namespace strata::aws
