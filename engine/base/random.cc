#include "engine/base/random.h"

#include <openssl/rand.h>

#include <cstring>
#include <stdexcept>

#include "engine/base/hex.h"

namespace strata::base {

double RandomSource::NextUnit() {
  uint64_t x = 0;
  Fill(reinterpret_cast<uint8_t*>(&x), sizeof x);
  return static_cast<double>(x >> 11) * 0x1.0p-53;
}

uint64_t RandomSource::Uniform(uint64_t bound) {
  if (bound <= 1) return 0;
  const uint64_t limit = UINT64_MAX - (UINT64_MAX % bound);
  while (true) {
    uint64_t x = 0;
    Fill(reinterpret_cast<uint8_t*>(&x), sizeof x);
    if (x < limit) return x % bound;
  }
}

std::string RandomSource::Bytes(size_t n) {
  std::string out(n, '\0');
  Fill(reinterpret_cast<uint8_t*>(out.data()), n);
  return out;
}

std::string RandomSource::Uuid() { return FormatUuidV4(Bytes(16)); }

std::string FormatUuidV4(std::string_view sixteen_bytes) {
  std::string b(sixteen_bytes.substr(0, 16));
  b.resize(16, '\0');
  b[6] = static_cast<char>((b[6] & 0x0f) | 0x40);
  b[8] = static_cast<char>((b[8] & 0x3f) | 0x80);
  std::string hex = HexEncode(b);
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

void SystemRandom::Fill(uint8_t* out, size_t n) {
  if (n > 0 && RAND_bytes(out, static_cast<int>(n)) != 1) {
    throw std::runtime_error("OpenSSL RAND_bytes failed");  // no entropy: cannot go on
  }
}

void SeededRandom::Fill(uint8_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    state_ += 0x9e3779b97f4a7c15ULL;
    uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    out[i] = static_cast<uint8_t>(z ^ (z >> 31));
  }
}

void FixedRandom::Fill(uint8_t* out, size_t n) {
  if (n > 0) std::memset(out, 0, n);
}

}  // namespace strata::base
