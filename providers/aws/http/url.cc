#include "providers/aws/http/url.h"

#include <charconv>

namespace strata::aws {
namespace {

bool IsUnreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == '~';
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string Url::HostHeader() const {
  bool default_port = port == 0 || (scheme == "https" && port == 443) ||
                      (scheme == "http" && port == 80);
  return default_port ? host : host + ":" + std::to_string(port);
}

std::string Url::Origin() const {
  std::string origin = scheme;
  origin.append("://").append(host);
  if (port != 0) origin.append(1, ':').append(std::to_string(port));
  return origin;
}

bool ParseUrl(std::string_view text, Url* out) {
  auto sep = text.find("://");
  if (sep == std::string_view::npos || sep == 0) return false;
  Url url;
  url.scheme = std::string(text.substr(0, sep));
  std::string_view rest = text.substr(sep + 3);
  auto path_start = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, path_start);
  std::string_view tail = path_start == std::string_view::npos ? "" : rest.substr(path_start);
  if (authority.empty()) return false;
  auto colon = authority.rfind(':');
  auto bracket = authority.rfind(']');
  if (colon != std::string_view::npos && (bracket == std::string_view::npos || colon > bracket)) {
    std::string_view port_text = authority.substr(colon + 1);
    auto [ptr, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), url.port);
    if (ec != std::errc() || ptr != port_text.data() + port_text.size()) return false;
    authority = authority.substr(0, colon);
  }
  url.host = std::string(authority);
  auto q = tail.find('?');
  url.path = std::string(tail.substr(0, q));
  if (q != std::string_view::npos) url.query = std::string(tail.substr(q + 1));
  if (url.path.empty()) url.path.assign(1, '/');
  *out = std::move(url);
  return true;
}

std::string UriEncode(std::string_view s, bool keep_slash) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if (IsUnreserved(c) || (keep_slash && c == '/')) {
      out += char(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string UriDecode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      int hi = HexValue(s[i + 1]), lo = HexValue(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += char(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

QueryParams ParseQuery(std::string_view query) {
  QueryParams params;
  size_t pos = 0;
  while (pos <= query.size() && !query.empty()) {
    size_t amp = query.find('&', pos);
    std::string_view part = query.substr(pos, amp == std::string_view::npos ? amp : amp - pos);
    if (!part.empty()) {
      auto eq = part.find('=');
      if (eq == std::string_view::npos)
        params.emplace_back(UriDecode(part), "");
      else
        params.emplace_back(UriDecode(part.substr(0, eq)), UriDecode(part.substr(eq + 1)));
    }
    if (amp == std::string_view::npos) break;
    pos = amp + 1;
  }
  return params;
}

std::string EncodeQuery(const QueryParams& params) {
  std::string out;
  for (const auto& [k, v] : params) {
    if (!out.empty()) out += '&';
    out += UriEncode(k);
    out += '=';
    out += UriEncode(v);
  }
  return out;
}

}  // namespace strata::aws
