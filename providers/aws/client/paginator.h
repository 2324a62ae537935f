#pragma once
// Pagination: call a list operation page by page until the service stops returning a
// continuation token (NextToken, nextToken, Marker, ...), collecting every page.

#include <functional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "providers/aws/core/result.h"
#include "providers/aws/protocol/query_protocol.h"

namespace strata::aws {

//! Fetches pages: `fetch("")` is the first page, `fetch(token)` the next ones, where
//! the token is `next_token(page)`; an empty token ends the walk. Fails with the first
//! failing page's error, or when a token repeats (a service bug that would loop) or
//! `max_pages` is exceeded.
template <typename Page>
Result<std::vector<Page>> CollectPages(const std::function<Result<Page>(const std::string&)>& fetch,
                                       const std::function<std::string(const Page&)>& next_token,
                                       size_t max_pages = 10000) {
  std::vector<Page> pages;
  std::set<std::string> seen;
  std::string token;
  for (;;) {
    Result<Page> page = fetch(token);
    if (!page.ok()) return std::move(page).error();
    token = next_token(page.value());
    pages.push_back(std::move(page).value());
    if (token.empty()) return pages;
    if (!seen.insert(token).second)
      return AwsError::Client(error_codes::kMalformedResponse,
                              "pagination token repeated; stopping after " +
                                  std::to_string(pages.size()) + " pages");
    if (pages.size() >= max_pages)
      return AwsError::Client(error_codes::kMalformedResponse,
                              "more than " + std::to_string(max_pages) + " pages");
  }
}

//! Token reader for JSON pages: the string at `field` ("NextToken", "nextToken"), or "".
inline std::function<std::string(const nlohmann::json&)> JsonNextToken(std::string field) {
  return [field = std::move(field)](const nlohmann::json& page) -> std::string {
    auto it = page.find(field);
    return it != page.end() && it->is_string() ? it->get<std::string>() : "";
  };
}

//! Token reader for XML pages: the text of `field` ("Marker", "NextToken", "nextToken")
//! under the result node; "" when absent or when <IsTruncated> says false.
inline std::function<std::string(const XmlResponse&)> XmlNextToken(std::string field) {
  return [field = std::move(field)](const XmlResponse& page) -> std::string {
    std::string truncated = XmlText(page.result, "IsTruncated");
    if (truncated == "false") return "";
    return XmlText(page.result, field);
  };
}

}  // namespace strata::aws
