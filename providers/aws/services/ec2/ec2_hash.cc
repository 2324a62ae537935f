#include "providers/aws/services/ec2/ec2_hash.h"

#include <array>

namespace strata::aws {
namespace {

std::array<uint32_t, 256> Crc32Table() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  return table;
}

}  // namespace

uint32_t StringHashcode(const std::string& s) {
  static const std::array<uint32_t, 256> table = Crc32Table();
  uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char ch : s) crc = table[(crc ^ ch) & 0xFF] ^ (crc >> 8);
  // Go's int(uint32) on 64-bit platforms is never negative, so Terraform's sign fix-up
  // never applies.
  return crc ^ 0xFFFFFFFFu;
}

std::string RouteId(const std::string& route_table_id, const std::string& destination) {
  return "r-" + route_table_id + std::to_string(StringHashcode(destination));
}

}  // namespace strata::aws
