#include "providers/builtin/random_source.h"

#include <openssl/rand.h>

#include <cstdio>
#include <stdexcept>

namespace strata {

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

std::string RandomSource::Uuid() {
  uint8_t b[16];
  Fill(b, sizeof b);
  b[6] = static_cast<uint8_t>((b[6] & 0x0f) | 0x40);
  b[8] = static_cast<uint8_t>((b[8] & 0x3f) | 0x80);
  char text[37];
  std::snprintf(text, sizeof text,
                "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                b[14], b[15]);
  return text;
}

namespace {

class OpenSslRandom : public RandomSource {
 public:
  void Fill(uint8_t* out, size_t n) override {
    if (RAND_bytes(out, static_cast<int>(n)) != 1) {
      throw std::runtime_error("OpenSSL RAND_bytes failed");  // no entropy: cannot go on
    }
  }
};

}  // namespace

std::shared_ptr<RandomSource> SystemRandom() { return std::make_shared<OpenSslRandom>(); }

void SeededRandom::Fill(uint8_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    state_ += 0x9e3779b97f4a7c15ULL;
    uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    out[i] = static_cast<uint8_t>(z ^ (z >> 31));
  }
}

}  // namespace strata
