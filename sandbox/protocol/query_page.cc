#include "sandbox/protocol/query_page.h"

#include <algorithm>
#include <cstdlib>

namespace strata::sandbox {
namespace {

// Tokens carry the offset of the next item behind a fixed prefix.
constexpr const char* kPageTokenPrefix = "strata-page-";

}  // namespace

QueryPage SelectQueryPage(const AwsQueryParams& params, size_t total, const QueryPaging& paging) {
  size_t size = static_cast<size_t>(params.Integer(paging.size_param, 1, paging.max_size).value_or(paging.default_size));
  size_t begin = 0;
  if (params.Has(paging.token_param)) {
    std::string token = params.Get(paging.token_param);
    std::string prefix = kPageTokenPrefix;
    char* end = nullptr;
    bool ok = token.compare(0, prefix.size(), prefix) == 0 && token.size() > prefix.size();
    long long offset = ok ? std::strtoll(token.c_str() + prefix.size(), &end, 10) : -1;
    if (!ok || *end != '\0' || offset < 0) {
      throw ValidationError(paging.token_param, token, "Member must be a token returned by a previous call");
    }
    begin = std::min(static_cast<size_t>(offset), total);
  }
  QueryPage page;
  page.begin = begin;
  page.end = std::min(total, begin + size);
  page.truncated = page.end < total;
  if (page.truncated) page.next_token = kPageTokenPrefix + std::to_string(page.end);
  return page;
}

}  // namespace strata::sandbox
