#include "engine/base/base64.h"

#include <cstdint>

namespace strata::base {
namespace {

constexpr char kStandard[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char kUrlSafe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// The 6-bit value of `c`, or -1 when `input` does not allow it as data.
int ValueOf(char c, Base64Input input) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  if (input == Base64Input::kLenient && c == '-') return 62;
  if (input == Base64Input::kLenient && c == '_') return 63;
  if (input == Base64Input::kOpenSsl && c == '=') return 0;
  return -1;
}

}  // namespace

std::string Base64Encode(std::string_view bytes, Base64Alphabet alphabet, bool pad) {
  const char* chars = alphabet == Base64Alphabet::kUrlSafe ? kUrlSafe : kStandard;
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    size_t n = bytes.size() - i < 3 ? bytes.size() - i : 3;
    uint32_t chunk = static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
    if (n > 1) chunk |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
    if (n > 2) chunk |= static_cast<unsigned char>(bytes[i + 2]);
    // n input bytes make n + 1 characters; the rest of the group is padding.
    for (size_t k = 0; k < 4; ++k) {
      if (k <= n) {
        out += chars[(chunk >> (18 - 6 * k)) & 0x3F];
      } else if (pad) {
        out += '=';
      }
    }
  }
  return out;
}

std::optional<std::string> Base64Decode(std::string_view text, Base64Input input) {
  size_t end = text.size();
  if (input == Base64Input::kLenient) {
    while (end > 0 && text[end - 1] == '=') --end;
  } else {
    if (text.size() % 4 != 0) return std::nullopt;
    size_t padding = 0;
    while (padding < end && text[end - 1 - padding] == '=') ++padding;
    if (padding > 2) return std::nullopt;
    end -= padding;
  }
  std::string out;
  out.reserve(end / 4 * 3 + 2);
  uint32_t buffer = 0;
  int bits = 0;
  for (size_t i = 0; i < end; ++i) {
    int v = ValueOf(text[i], input);
    if (v < 0) return std::nullopt;
    buffer = (buffer << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xFF);
    }
  }
  if (bits >= 6) return std::nullopt;  // a lone final character cannot hold a byte
  return out;
}

}  // namespace strata::base
