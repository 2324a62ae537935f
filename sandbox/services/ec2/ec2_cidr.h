#pragma once
// IPv4 CIDR blocks as EC2 checks them: network-aligned "a.b.c.d/n", containment, overlap.

#include <cstdint>
#include <optional>
#include <string>

namespace strata::sandbox {

//! An IPv4 network: the first address and the prefix length.
struct Ipv4Cidr {
  uint32_t base = 0;
  int prefix = 0;

  uint64_t Size() const { return uint64_t{1} << (32 - prefix); }
  uint32_t Last() const { return static_cast<uint32_t>(base + Size() - 1); }
  bool Contains(const Ipv4Cidr& other) const { return other.base >= base && other.Last() <= Last(); }
  bool Overlaps(const Ipv4Cidr& other) const { return base <= other.Last() && other.base <= Last(); }
  //! The address `offset` addresses after the base, as text.
  std::string AddressAt(uint32_t offset) const;
  std::string ToString() const;
};

//! Parses "10.0.0.0/16"; nullopt when malformed or when host bits are set ("10.0.0.1/16"),
//! which EC2 refuses as "not a valid CIDR block".
std::optional<Ipv4Cidr> ParseIpv4Cidr(const std::string& text);
//! Parses a dotted quad.
std::optional<uint32_t> ParseIpv4(const std::string& text);
std::string Ipv4Text(uint32_t address);

}  // namespace strata::sandbox
