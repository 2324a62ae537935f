#pragma once
// The pagination of awsQuery list calls: a page size parameter (IAM's MaxItems, Auto
// Scaling's MaxRecords) and an opaque token from the previous page (IAM's Marker, Auto
// Scaling's NextToken). Each service names its parameters and limits; the tokens this
// sandbox issues carry the offset of the next item, and a token it did not issue is a
// ValidationError rather than an arbitrary page.

#include <cstddef>
#include <string>

#include "sandbox/protocol/aws_query_params.h"

namespace strata::sandbox {

//! How one API pages its lists.
struct QueryPaging {
  const char* size_param;  //!< "MaxItems", "MaxRecords"
  const char* token_param;  //!< "Marker", "NextToken"
  long long max_size;       //!< 1000, 100
  long long default_size;   //!< 100, 50
};

//! The items [begin, end) of a list of `total` that one call answers.
struct QueryPage {
  size_t begin = 0;
  size_t end = 0;
  bool truncated = false;
  std::string next_token;  //!< set when truncated
};

//! The page the call's token and size parameters select. A size out of [1, max_size] or a
//! token this sandbox did not issue is a ValidationError.
QueryPage SelectQueryPage(const AwsQueryParams& params, size_t total, const QueryPaging& paging);

}  // namespace strata::sandbox
