#pragma once
// The Auto Scaling API (awsQuery, version 2011-01-01) as the sandbox serves it: each
// autoscaling_<family>.cc adds its actions to the service's table, and what they share —
// the Filters parameter, paging, refusals — is declared here.

#include <string>
#include <vector>

#include "sandbox/protocol/query_page.h"
#include "sandbox/query_service.h"

namespace strata::sandbox::autoscaling {

using AutoScalingCall = QueryCall;
using AutoScalingActionTable = QueryCallTable;

//! DescribeAutoScalingGroups.
void AddGroupActions(AutoScalingActionTable& table);
//! CreateAutoScalingGroup, UpdateAutoScalingGroup, DeleteAutoScalingGroup,
//! SuspendProcesses, ResumeProcesses.
void AddLifecycleActions(AutoScalingActionTable& table);
//! CreateOrUpdateTags, DeleteTags, DescribeTags.
void AddTagActions(AutoScalingActionTable& table);

//! One entry of a Filters parameter (Filters.member.N.Name, .Values.member.M).
struct Filter {
  std::string name;
  std::vector<std::string> values;
};
//! The call's Filters, in order; a filter without a Name is a ValidationError.
std::vector<Filter> FiltersOf(const AwsQueryParams& params);
//! Whether `value` is one of the filter's values.
bool FilterMatches(const Filter& filter, const std::string& value);

//! Auto Scaling's paging: MaxRecords (1..100, default 50) and NextToken.
QueryPage SelectAutoScalingPage(const AwsQueryParams& params, size_t total);
//! Appends <NextToken> when the page is truncated.
void WriteNextToken(pugi::xml_node result, const QueryPage& page);

//! Auto Scaling's ValidationError (400): its messages are free text, not the "1 validation
//! error detected" form.
ApiError AutoScalingValidation(const std::string& message);

}  // namespace strata::sandbox::autoscaling
