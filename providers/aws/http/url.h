#pragma once
// URL splitting and the percent-encodings AWS uses (RFC 3986 unreserved set).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strata::aws {

//! The parts of an absolute URL. `path` and `query` are kept as written (encoded).
struct Url {
  std::string scheme;  //!< "https"
  std::string host;    //!< "sts.us-east-1.amazonaws.com" (no brackets stripping for IPv6)
  int port = 0;        //!< 0 when the URL has no explicit port
  std::string path;    //!< "/" when empty
  std::string query;   //!< without the '?'; empty when absent

  //! "host" or "host:port" when the port is explicit and not the scheme's default —
  //! the value of the Host header that curl sends and SigV4 signs.
  std::string HostHeader() const;
  //! scheme://host[:port]
  std::string Origin() const;
};

//! Splits an absolute URL. Returns false when there is no "scheme://host".
bool ParseUrl(std::string_view text, Url* out);

//! Percent-encodes everything but RFC 3986 unreserved characters (A-Z a-z 0-9 - _ . ~).
//! With `keep_slash`, '/' is kept too (for paths).
std::string UriEncode(std::string_view s, bool keep_slash = false);
//! Decodes %XX sequences; '+' is left as is. Malformed sequences are kept literally.
std::string UriDecode(std::string_view s);

using QueryParams = std::vector<std::pair<std::string, std::string>>;
//! Splits "a=1&b&c=" into decoded pairs ("b" gets an empty value).
QueryParams ParseQuery(std::string_view query);
//! Joins pairs as "k=v&..." with UriEncode on both sides, in the given order. This is
//! also the application/x-www-form-urlencoded body of the query protocol.
std::string EncodeQuery(const QueryParams& params);

}  // namespace strata::aws
