// Hash functions: md5, sha1, sha256, sha512 (hex), base64sha256, base64sha512, their file*
// variants, which hash a file's bytes, uuidv5 and uuid. The digests are engine/base's (OpenSSL).
#include <fmt/format.h>

#include <cctype>
#include <map>

#include "engine/base/base64.h"
#include "engine/base/hash.h"
#include "engine/base/hex.h"
#include "engine/base/random.h"
#include "engine/expr/function.h"
#include "engine/expr/functions/util.h"

namespace strata {
namespace {

using base::DigestAlgorithm;
using functions::Args;

std::string Digest(DigestAlgorithm algorithm, const std::string& data) {
  std::string digest = base::Digest(algorithm, data);
  if (digest.empty()) functions::Fail(-1, "failed to compute the hash");
  return digest;
}

enum class Encoding { Hex, Base64 };

struct HashFunction {
  const char* name;
  DigestAlgorithm algorithm;
  Encoding encoding;
};

std::string Encode(const std::string& digest, Encoding encoding) {
  return encoding == Encoding::Hex ? base::HexEncode(digest) : base::Base64Encode(digest);
}

// Parses "6ba7b810-9dad-11d1-80b4-00c04fd430c8" into 16 bytes.
bool ParseUuid(const std::string& text, std::string& bytes) {
  std::string hex;
  for (size_t i = 0; i < text.size(); ++i) {
    bool dash_position = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash_position != (text[i] == '-')) return false;
    if (!dash_position) {
      if (!std::isxdigit(static_cast<unsigned char>(text[i]))) return false;
      hex += text[i];
    }
  }
  if (hex.size() != 32) return false;
  bytes.clear();
  for (size_t i = 0; i < 32; i += 2)
    bytes += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  return true;
}

// RFC 4122 name-based UUID (version 5, SHA-1).
Value UuidV5(const Args& args, const FunctionContext&) {
  static const std::map<std::string, std::string> kNamespaces = {
      {"dns", "6ba7b810-9dad-11d1-80b4-00c04fd430c8"},
      {"url", "6ba7b811-9dad-11d1-80b4-00c04fd430c8"},
      {"oid", "6ba7b812-9dad-11d1-80b4-00c04fd430c8"},
      {"x500", "6ba7b814-9dad-11d1-80b4-00c04fd430c8"},
  };
  std::string ns = functions::StringArg(args, 0);
  auto known = kNamespaces.find(ns);
  std::string ns_bytes;
  if (!ParseUuid(known != kNamespaces.end() ? known->second : ns, ns_bytes)) {
    functions::Fail(0,
                    fmt::format("uuidv5() doesn't support namespace \"{}\"; use \"dns\", \"url\", "
                                "\"oid\", \"x500\" or a UUID",
                                ns));
  }
  std::string hash = Digest(DigestAlgorithm::kSha1, ns_bytes + functions::StringArg(args, 1)).substr(0, 16);
  hash[6] = static_cast<char>((hash[6] & 0x0F) | 0x50);
  hash[8] = static_cast<char>((hash[8] & 0x3F) | 0x80);
  std::string hex = base::HexEncode(hash);
  return Value::String(fmt::format("{}-{}-{}-{}-{}", hex.substr(0, 8), hex.substr(8, 4),
                                   hex.substr(12, 4), hex.substr(16, 4), hex.substr(20)));
}

// A random version-4 UUID. Like Terraform's, unknown while planning (its value is taken at
// apply, a new one each time), which keeps plans stable.
Value Uuid(const Args&, const FunctionContext& ctx) {
  if (ctx.planning) return Value::Unknown();
  base::SystemRandom random;
  return Value::String(random.Uuid());
}

}  // namespace

void RegisterHashFunctions(FunctionTable& table) {
  static const HashFunction kHashes[] = {
      {"md5", DigestAlgorithm::kMd5, Encoding::Hex},
      {"sha1", DigestAlgorithm::kSha1, Encoding::Hex},
      {"sha256", DigestAlgorithm::kSha256, Encoding::Hex},
      {"sha512", DigestAlgorithm::kSha512, Encoding::Hex},
      {"base64sha256", DigestAlgorithm::kSha256, Encoding::Base64},
      {"base64sha512", DigestAlgorithm::kSha512, Encoding::Base64},
  };
  for (const auto& h : kHashes) {
    functions::DefineStringFunction(
        table, h.name, [h](const std::string& s) { return Encode(Digest(h.algorithm, s), h.encoding); });
    functions::Define(table, std::string("file") + h.name, 1, 1,
                      [h](const Args& args, const FunctionContext& ctx) {
                        return Value::String(Encode(
                            Digest(h.algorithm, functions::ReadFileArg(args, 0, ctx)), h.encoding));
                      });
  }
  functions::Define(table, "uuidv5", 2, 2, UuidV5);
  functions::Define(table, "uuid", 0, 0, Uuid);
}

}  // namespace strata
