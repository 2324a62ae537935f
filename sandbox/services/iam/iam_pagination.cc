#include "sandbox/services/iam/iam_pagination.h"

#include <algorithm>
#include <cstdlib>

#include "sandbox/protocol/xml_writer.h"

namespace strata::sandbox::iam {
namespace {

// Markers carry the offset of the next item behind a fixed prefix, so a client that
// sends back something else is told so rather than served an arbitrary page.
constexpr const char* kMarkerPrefix = "strata-page-";

}  // namespace

Page SelectPage(const AwsQueryParams& params, size_t total) {
  size_t max_items = static_cast<size_t>(params.Integer("MaxItems", 1, 1000).value_or(100));
  size_t begin = 0;
  if (params.Has("Marker")) {
    std::string marker = params.Get("Marker");
    std::string prefix = kMarkerPrefix;
    char* end = nullptr;
    bool ok = marker.compare(0, prefix.size(), prefix) == 0 && marker.size() > prefix.size();
    long long offset = ok ? std::strtoll(marker.c_str() + prefix.size(), &end, 10) : -1;
    if (!ok || *end != '\0' || offset < 0) {
      throw ValidationError("Marker", marker, "Member must be a marker returned by a previous call");
    }
    begin = std::min(static_cast<size_t>(offset), total);
  }
  Page page;
  page.begin = begin;
  page.end = std::min(total, begin + max_items);
  page.truncated = page.end < total;
  if (page.truncated) page.next_marker = kMarkerPrefix + std::to_string(page.end);
  return page;
}

void WritePage(pugi::xml_node result, const Page& page) {
  AddBool(result, "IsTruncated", page.truncated);
  if (page.truncated) AddText(result, "Marker", page.next_marker);
}

}  // namespace strata::sandbox::iam
