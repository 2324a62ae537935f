#pragma once
// Plain HTTP request/response values shared by the transport, the signer and the
// protocol layers.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strata::aws {

//! Header list in insertion order. Names compare case-insensitively; duplicates are
//! allowed (the signer joins them with ',' as SigV4 requires).
using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

//! First value of header `name` (case-insensitive), or nullopt.
std::optional<std::string> FindHeader(const HttpHeaders& headers, std::string_view name);
//! Replaces every `name` header by one with `value` (appends when absent).
void SetHeader(HttpHeaders& headers, std::string_view name, std::string value);
//! Removes every `name` header.
void RemoveHeader(HttpHeaders& headers, std::string_view name);
//! ASCII case-insensitive equality.
bool EqualsIgnoreCase(std::string_view a, std::string_view b);
//! ASCII lower-casing.
std::string ToLower(std::string_view s);

//! One HTTP request. `url` is absolute ("https://host[:port]/path?query") with the path
//! and query already percent-encoded as they go on the wire.
struct HttpRequest {
  std::string method = "GET";
  std::string url;
  HttpHeaders headers;
  std::string body;
  //! Whole-exchange timeout (connect + send + receive).
  std::chrono::milliseconds timeout{std::chrono::seconds(60)};
  std::chrono::milliseconds connect_timeout{std::chrono::seconds(10)};
};

//! An HTTP response, whatever its status.
struct HttpResponse {
  int status = 0;
  HttpHeaders headers;
  std::string body;
};

//! Why no HTTP response was obtained.
struct TransportError {
  enum class Kind {
    Connect,  //!< DNS or connection refused: the request was never sent
    Lost,     //!< sent (in part or whole), then the connection failed before an answer
    Timeout,  //!< the request's timeout elapsed
    Tls,      //!< certificate or handshake failure: not retried
    Other,    //!< bad URL, out of memory, ...
  };
  Kind kind = Kind::Other;
  std::string message;
};

}  // namespace strata::aws
