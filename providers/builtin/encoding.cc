#include "providers/builtin/encoding.h"

#include <openssl/evp.h>

namespace strata::builtin {

std::string Base64Encode(const std::string& bytes, bool url_safe, bool pad) {
  static const char* kStd = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  static const char* kUrl = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const char* alphabet = url_safe ? kUrl : kStd;
  std::string out;
  size_t i = 0;
  auto byte = [&](size_t k) { return static_cast<unsigned char>(bytes[k]); };
  for (; i + 2 < bytes.size(); i += 3) {
    unsigned n = (byte(i) << 16) | (byte(i + 1) << 8) | byte(i + 2);
    out += alphabet[(n >> 18) & 63];
    out += alphabet[(n >> 12) & 63];
    out += alphabet[(n >> 6) & 63];
    out += alphabet[n & 63];
  }
  size_t rest = bytes.size() - i;
  if (rest == 1) {
    unsigned n = byte(i) << 16;
    out += alphabet[(n >> 18) & 63];
    out += alphabet[(n >> 12) & 63];
    if (pad) out += "==";
  } else if (rest == 2) {
    unsigned n = (byte(i) << 16) | (byte(i + 1) << 8);
    out += alphabet[(n >> 18) & 63];
    out += alphabet[(n >> 12) & 63];
    out += alphabet[(n >> 6) & 63];
    if (pad) out += '=';
  }
  return out;
}

std::optional<std::string> Base64Decode(const std::string& text) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
  };
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  size_t end = text.size();
  while (end > 0 && text[end - 1] == '=') --end;
  for (size_t i = 0; i < end; ++i) {
    int v = value(text[i]);
    if (v < 0) return std::nullopt;
    buffer = (buffer << 6) | unsigned(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xff);
    }
  }
  if (bits >= 6) return std::nullopt;  // a lone trailing character
  return out;
}

std::string HexEncode(const std::string& bytes) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

std::string DigestOf(Digest which, const std::string& data) {
  const EVP_MD* md = which == Digest::Md5    ? EVP_md5()
                     : which == Digest::Sha1 ? EVP_sha1()
                     : which == Digest::Sha256 ? EVP_sha256()
                                               : EVP_sha512();
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), out, &len, md, nullptr);
  return std::string(reinterpret_cast<char*>(out), len);
}

}  // namespace strata::builtin
