#include "sandbox/services/ec2/ec2_cidr.h"

#include <cctype>

namespace strata::sandbox {

std::optional<uint32_t> ParseIpv4(const std::string& text) {
  uint32_t address = 0;
  int parts = 0;
  size_t i = 0;
  while (parts < 4) {
    size_t start = i;
    uint32_t octet = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && i - start < 3) {
      octet = octet * 10 + static_cast<uint32_t>(text[i++] - '0');
    }
    if (i == start || octet > 255 || (i - start > 1 && text[start] == '0')) return std::nullopt;
    address = (address << 8) | octet;
    if (++parts < 4) {
      if (i >= text.size() || text[i] != '.') return std::nullopt;
      ++i;
    }
  }
  if (i != text.size()) return std::nullopt;
  return address;
}

std::string Ipv4Text(uint32_t a) {
  return std::to_string(a >> 24) + "." + std::to_string((a >> 16) & 255) + "." +
         std::to_string((a >> 8) & 255) + "." + std::to_string(a & 255);
}

std::optional<Ipv4Cidr> ParseIpv4Cidr(const std::string& text) {
  size_t slash = text.find('/');
  if (slash == std::string::npos || slash + 1 >= text.size() || text.size() - slash > 3) return std::nullopt;
  std::optional<uint32_t> base = ParseIpv4(text.substr(0, slash));
  if (!base) return std::nullopt;
  int prefix = 0;
  for (size_t i = slash + 1; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
    prefix = prefix * 10 + (text[i] - '0');
  }
  if (prefix > 32) return std::nullopt;
  uint32_t mask = prefix == 0 ? 0 : ~uint32_t{0} << (32 - prefix);
  if ((*base & ~mask) != 0) return std::nullopt;
  return Ipv4Cidr{*base, prefix};
}

std::string Ipv4Cidr::AddressAt(uint32_t offset) const { return Ipv4Text(base + offset); }

std::string Ipv4Cidr::ToString() const { return Ipv4Text(base) + "/" + std::to_string(prefix); }

}  // namespace strata::sandbox
