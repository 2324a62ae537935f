#include "providers/builtin/seeded_random.h"

namespace strata::builtin {

uint64_t Crc64Iso(const std::string& data) {
  constexpr uint64_t kIsoReversed = 0xD800000000000000ULL;
  uint64_t crc = ~uint64_t{0};
  for (unsigned char c : data) {
    crc ^= c;
    for (int bit = 0; bit < 8; ++bit) crc = (crc & 1) ? (crc >> 1) ^ kIsoReversed : crc >> 1;
  }
  return ~crc;
}

std::shared_ptr<base::RandomSource> RandomForSeed(const std::string& seed,
                                                  std::shared_ptr<base::RandomSource> fallback) {
  if (seed.empty()) return fallback;
  return std::make_shared<base::SeededRandom>(Crc64Iso(seed));
}

}  // namespace strata::builtin
