#include "state/postgres/conninfo.h"

#include <cctype>

#include "state/postgres/pg_library.h"

namespace strata::state::pg {
namespace {

bool IsPgUri(const std::string& s) { return s.rfind("postgres://", 0) == 0 || s.rfind("postgresql://", 0) == 0; }

// URI: the user-info password and any password= query parameter.
std::string MaskPgUri(const std::string& uri) {
  std::string out = uri;
  size_t start = out.find("://") + 3;
  size_t end = out.find_first_of("/?", start);
  if (end == std::string::npos) end = out.size();
  size_t at = out.rfind('@', end - 1);
  if (at != std::string::npos && at >= start) {
    size_t colon = out.find(':', start);
    if (colon != std::string::npos && colon < at) out.replace(colon + 1, at - colon - 1, "***");
  }
  size_t query = out.find('?');
  while (query != std::string::npos) {
    size_t key = query + 1;
    size_t next = out.find('&', key);
    if (out.compare(key, 9, "password=") == 0) {
      size_t value = key + 9;
      out.replace(value, (next == std::string::npos ? out.size() : next) - value, "***");
      next = out.find('&', value);
    }
    query = next;
  }
  return out;
}

// key=value pairs: the value of `password` (plain, or single-quoted with \-escapes).
std::string MaskPgPairs(const std::string& pairs) {
  std::string out;
  size_t i = 0;
  while (i < pairs.size()) {
    if (std::isspace(static_cast<unsigned char>(pairs[i]))) {
      out += pairs[i++];
      continue;
    }
    size_t key_start = i;
    while (i < pairs.size() && pairs[i] != '=' && !std::isspace(static_cast<unsigned char>(pairs[i]))) ++i;
    std::string key = pairs.substr(key_start, i - key_start);
    out += key;
    while (i < pairs.size() && std::isspace(static_cast<unsigned char>(pairs[i]))) out += pairs[i++];
    if (i >= pairs.size() || pairs[i] != '=') continue;
    out += pairs[i++];
    while (i < pairs.size() && std::isspace(static_cast<unsigned char>(pairs[i]))) out += pairs[i++];
    size_t value_start = i;
    if (i < pairs.size() && pairs[i] == '\'') {
      for (++i; i < pairs.size() && pairs[i] != '\''; ++i) {
        if (pairs[i] == '\\') ++i;
      }
      if (i < pairs.size()) ++i;
    } else {
      while (i < pairs.size() && !std::isspace(static_cast<unsigned char>(pairs[i]))) ++i;
    }
    out += key == "password" ? std::string("***") : pairs.substr(value_start, i - value_start);
  }
  return out;
}

}  // namespace

std::string MaskConnectionUrl(const std::string& conninfo) {
  return IsPgUri(conninfo) ? MaskPgUri(conninfo) : MaskPgPairs(conninfo);
}

std::string ConninfoPassword(const std::string& conninfo) {
  const PqLibrary* pq = LoadLibpq(nullptr);
  if (!pq) return "";
  char* error = nullptr;
  PQconninfoOption* options = pq->conninfo_parse(conninfo.c_str(), &error);
  if (error) pq->freemem(error);
  if (!options) return "";
  std::string password;
  for (PQconninfoOption* o = options; o->keyword; ++o) {
    if (std::string(o->keyword) == "password" && o->val) password = o->val;
  }
  pq->conninfo_free(options);
  return password;
}

std::string ScrubSecret(std::string text, const std::string& secret) {
  if (secret.empty()) return text;
  for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at + 3)) {
    text.replace(at, secret.size(), "***");
  }
  return text;
}

std::string InvalidSchemaReason(const std::string& name) {
  auto bad = [&](const std::string& why) {
    return "the PostgreSQL schema name \"" + name + "\" " + why +
           ": use lower-case letters, digits and '_' (e.g. strata or team_a_state)";
  };
  if (name.empty()) return bad("is empty");
  if (name.size() > 63) return bad("is longer than 63 characters");
  if (std::isdigit(static_cast<unsigned char>(name[0]))) return bad("starts with a digit");
  for (char c : name) {
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_')) {
      return bad("holds '" + std::string(1, c) + "'");
    }
  }
  if (name.rfind("pg_", 0) == 0) return bad("starts with pg_, which PostgreSQL reserves");
  return "";
}

}  // namespace strata::state::pg
