#pragma once
// Routing of the REST protocols (REST-JSON: EKS; REST-XML: Route 53, S3): an operation is an
// HTTP method and a path pattern whose "{}" segments capture one path segment each.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sandbox/service.h"

namespace strata::sandbox {

//! The path segments a route captured, in order.
using RouteCaptures = std::vector<std::string>;
using RouteHandler = std::function<Response(ServiceContext&, const RouteCaptures&)>;

//! One operation: its method and path pattern, "{}" matching one path segment.
struct RestRoute {
  std::string method;
  std::vector<std::string> pattern;
  RouteHandler handler;
};

//! The non-empty segments of `path` ("/a//b/" -> {"a", "b"}).
std::vector<std::string> PathSegments(std::string_view path);

//! The first route of `routes` whose method and pattern match, with its captures; null when
//! none does.
const RestRoute* FindRoute(const std::vector<RestRoute>& routes, const std::string& method,
                           const std::vector<std::string>& segments, RouteCaptures& captures);

}  // namespace strata::sandbox
