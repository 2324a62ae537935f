// IP network functions: cidrsubnet, cidrsubnets, cidrhost, cidrnetmask and cidrcontains
// (OpenTofu's), for IPv4 and IPv6.
// Addresses are held as 128-bit integers; an IPv4 network uses the low 32 bits.
#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "engine/expr/function.h"
#include "engine/expr/functions/util.h"

namespace strata {
namespace {

using functions::Args;
using functions::Define;
using functions::Fail;

__extension__ typedef unsigned __int128 Address;

struct Network {
  Address base = 0;  // masked to the prefix
  int prefix = 0;
  int bits = 32;  // 32 for IPv4, 128 for IPv6
};

// All ones in the low `n` bits (n may be 128).
Address LowMask(int n) { return n >= 128 ? ~Address(0) : (Address(1) << n) - 1; }

bool ParseDecimal(std::string_view s, int max, int& out) {
  if (s.empty() || s.size() > 3) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size() && out <= max;
}

bool ParseIPv4(std::string_view s, Address& out) {
  out = 0;
  for (int i = 0; i < 4; ++i) {
    size_t dot = i < 3 ? s.find('.') : s.size();
    int octet = 0;
    if (dot == std::string_view::npos || !ParseDecimal(s.substr(0, dot), 255, octet)) return false;
    out = (out << 8) | octet;
    s = i < 3 ? s.substr(dot + 1) : s;
  }
  return true;
}

// Parses the groups of one side of "::"; an IPv4 tail counts as two groups.
bool ParseGroups(std::string_view s, std::vector<uint16_t>& groups) {
  while (!s.empty()) {
    size_t colon = s.find(':');
    std::string_view part = s.substr(0, colon);
    if (colon == std::string_view::npos && part.find('.') != std::string_view::npos) {
      Address v4 = 0;
      if (!ParseIPv4(part, v4)) return false;
      groups.push_back(static_cast<uint16_t>(v4 >> 16));
      groups.push_back(static_cast<uint16_t>(v4 & 0xFFFF));
      return true;
    }
    unsigned value = 0;
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), value, 16);
    if (part.empty() || part.size() > 4 || ec != std::errc() || ptr != part.data() + part.size())
      return false;
    groups.push_back(static_cast<uint16_t>(value));
    if (colon == std::string_view::npos) break;
    s = s.substr(colon + 1);
    if (s.empty()) return false;
  }
  return true;
}

bool ParseIPv6(std::string_view s, Address& out) {
  std::vector<uint16_t> head, tail;
  size_t gap = s.find("::");
  if (gap == std::string_view::npos) {
    if (!ParseGroups(s, head) || head.size() != 8) return false;
  } else {
    if (!ParseGroups(s.substr(0, gap), head) || !ParseGroups(s.substr(gap + 2), tail)) return false;
    if (head.size() + tail.size() > 7) return false;
    head.resize(8 - tail.size(), 0);
    head.insert(head.end(), tail.begin(), tail.end());
  }
  out = 0;
  for (uint16_t g : head) out = (out << 16) | g;
  return true;
}

Network ParseCidr(const Args& args, int index) {
  std::string text = functions::StringArg(args, index);
  auto fail = [&]() { Fail(index, fmt::format("invalid CIDR address: \"{}\"", text)); };
  size_t slash = text.find('/');
  if (slash == std::string::npos) fail();
  std::string_view addr(text.data(), slash);
  Network n;
  Address ip = 0;
  if (addr.find(':') != std::string_view::npos) {
    n.bits = 128;
    if (!ParseIPv6(addr, ip)) fail();
  } else if (!ParseIPv4(addr, ip)) {
    fail();
  }
  if (!ParseDecimal(std::string_view(text).substr(slash + 1), n.bits, n.prefix)) fail();
  n.base = ip & ~LowMask(n.bits - n.prefix) & LowMask(n.bits);
  return n;
}

std::string FormatAddress(Address a, int bits) {
  if (bits == 32) {
    return fmt::format("{}.{}.{}.{}", unsigned((a >> 24) & 0xFF), unsigned((a >> 16) & 0xFF),
                       unsigned((a >> 8) & 0xFF), unsigned(a & 0xFF));
  }
  uint16_t groups[8];
  for (int i = 0; i < 8; ++i) groups[i] = static_cast<uint16_t>(a >> (16 * (7 - i)));
  // RFC 5952: the first longest run of two or more zero groups becomes "::".
  int best = -1, best_len = 1;
  for (int i = 0; i < 8;) {
    int j = i;
    while (j < 8 && groups[j] == 0) ++j;
    if (j - i > best_len) {
      best = i;
      best_len = j - i;
    }
    i = j > i ? j : i + 1;
  }
  std::string out;
  for (int i = 0; i < 8; ++i) {
    if (i == best) {
      out += "::";
      i += best_len - 1;
      continue;
    }
    if (!out.empty() && out.back() != ':') out += ':';
    out += fmt::format("{:x}", groups[i]);
  }
  return out;
}

std::string FormatNetwork(Address base, int prefix, int bits) {
  return FormatAddress(base, bits) + "/" + std::to_string(prefix);
}

Value CidrSubnet(const Args& args, const FunctionContext&) {
  Network n = ParseCidr(args, 0);
  int64_t newbits = functions::IntegerArg(args, 1);
  int64_t netnum = functions::IntegerArg(args, 2);
  if (newbits < 0) Fail(1, "newbits must not be negative");
  if (n.prefix + newbits > n.bits) {
    Fail(1,
         fmt::format("insufficient address space to extend prefix of {} by {}", n.prefix, newbits));
  }
  if (netnum < 0 || (newbits < 63 && netnum >= (int64_t(1) << newbits))) {
    Fail(2, fmt::format("prefix extension of {} does not accommodate a subnet numbered {}", newbits,
                        netnum));
  }
  int prefix = n.prefix + static_cast<int>(newbits);
  Address subnet = n.base | (Address(netnum) << (n.bits - prefix));
  return Value::String(FormatNetwork(subnet, prefix, n.bits));
}

Value CidrSubnets(const Args& args, const FunctionContext&) {
  Network n = ParseCidr(args, 0);
  Address last_of_network = n.base | LowMask(n.bits - n.prefix);
  std::vector<std::string> out;
  bool first = true;
  Address current_last = 0;  // last address of the previous subnet
  int current_prefix = 0;
  for (size_t i = 1; i < args.size(); ++i) {
    int index = static_cast<int>(i);
    int64_t newbits = functions::IntegerArg(args, index);
    if (newbits < 1) Fail(index, "must extend prefix by at least one bit");
    int64_t length = n.prefix + newbits;
    if (length > n.bits) {
      Fail(index, fmt::format("would extend prefix to {} bits, which is too long for an {} address",
                              length, n.bits == 32 ? "IPv4" : "IPv6"));
    }
    Address size_mask = LowMask(n.bits - static_cast<int>(length));
    Address start = n.base;
    if (!first) {
      // The next aligned block after the previous subnet (Terraform's cidr.NextSubnet).
      start = (current_last & ~size_mask) + size_mask + 1;
      bool wrapped = start == 0 || start <= current_last;
      if (wrapped || (start | size_mask) > last_of_network) {
        Fail(index,
             fmt::format("not enough remaining address space for a subnet with a prefix of {} bits "
                         "after {}",
                         length,
                         FormatNetwork(current_last & ~LowMask(n.bits - current_prefix),
                                       current_prefix, n.bits)));
      }
    }
    first = false;
    current_last = start | size_mask;
    current_prefix = static_cast<int>(length);
    out.push_back(FormatNetwork(start, current_prefix, n.bits));
  }
  return functions::StringList(out);
}

Value CidrHost(const Args& args, const FunctionContext&) {
  Network n = ParseCidr(args, 0);
  int64_t hostnum = functions::IntegerArg(args, 1);
  Address max = LowMask(n.bits - n.prefix);
  // Negative numbers count back from the last address: -1 is the last one.
  Address distance = hostnum < 0 ? Address(-(hostnum + 1)) : Address(hostnum);
  if (distance > max) {
    Fail(1, fmt::format("prefix of {} does not accommodate a host numbered {}", n.prefix, hostnum));
  }
  Address host = hostnum < 0 ? max - distance : distance;
  return Value::String(FormatAddress(n.base | host, n.bits));
}

Value CidrNetmask(const Args& args, const FunctionContext&) {
  Network n = ParseCidr(args, 0);
  if (n.bits != 32)
    Fail(0, fmt::format("IPv6 addresses cannot have a netmask: {}", functions::StringArg(args, 0)));
  return Value::String(FormatAddress(~LowMask(32 - n.prefix) & LowMask(32), 32));
}

// OpenTofu's cidrcontains: whether an address, or every address of a prefix, lies in a prefix.
Value CidrContains(const Args& args, const FunctionContext&) {
  Network container = ParseCidr(args, 0);
  std::string text = functions::StringArg(args, 1);
  Network contained;
  if (text.find('/') != std::string::npos) {
    contained = ParseCidr(args, 1);
  } else {
    bool v6 = text.find(':') != std::string::npos;
    contained.bits = v6 ? 128 : 32;
    contained.prefix = contained.bits;
    if (!(v6 ? ParseIPv6(text, contained.base) : ParseIPv4(text, contained.base)))
      Fail(1, fmt::format("invalid IP address: \"{}\"", text));
  }
  if (contained.bits != container.bits) {
    Fail(1, fmt::format("\"{}\" is an {} address and \"{}\" an {} prefix: both must be IPv4 or both IPv6", text,
                        contained.bits == 32 ? "IPv4" : "IPv6", functions::StringArg(args, 0),
                        container.bits == 32 ? "IPv4" : "IPv6"));
  }
  Address host_bits = LowMask(container.bits - container.prefix);
  bool inside = contained.prefix >= container.prefix && (contained.base & ~host_bits & LowMask(container.bits)) == container.base;
  return Value::Bool(inside);
}

}  // namespace

void RegisterNetworkFunctions(FunctionTable& table) {
  Define(table, "cidrsubnet", 3, 3, CidrSubnet);
  Define(table, "cidrsubnets", 1, -1, CidrSubnets);
  Define(table, "cidrhost", 2, 2, CidrHost);
  Define(table, "cidrnetmask", 1, 1, CidrNetmask);
  Define(table, "cidrcontains", 2, 2, CidrContains);
}

}  // namespace strata
