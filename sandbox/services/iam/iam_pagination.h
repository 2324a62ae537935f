#pragma once
// IAM's list pagination: MaxItems (1..1000, default 100) and an opaque Marker from the
// previous page (sandbox/protocol/query_page.h); a truncated page says IsTruncated=true and
// carries the next Marker.

#include <cstddef>

#include <pugixml.hpp>

#include "sandbox/protocol/aws_query_params.h"
#include "sandbox/protocol/query_page.h"

namespace strata::sandbox::iam {

using Page = QueryPage;

//! The page the call's Marker and MaxItems select. A Marker this sandbox did not issue,
//! or MaxItems out of range, is a ValidationError.
Page SelectPage(const AwsQueryParams& params, size_t total);

//! Appends <IsTruncated> and, when truncated, <Marker> to `result`.
void WritePage(pugi::xml_node result, const Page& page);

}  // namespace strata::sandbox::iam
