#include "sandbox/services/iam/iam_pagination.h"

#include "sandbox/protocol/xml_writer.h"

namespace strata::sandbox::iam {

Page SelectPage(const AwsQueryParams& params, size_t total) {
  return SelectQueryPage(params, total, QueryPaging{"MaxItems", "Marker", 1000, 100});
}

void WritePage(pugi::xml_node result, const Page& page) {
  AddBool(result, "IsTruncated", page.truncated);
  if (page.truncated) AddText(result, "Marker", page.next_token);
}

}  // namespace strata::sandbox::iam
