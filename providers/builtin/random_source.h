#pragma once
// Seam: where the builtin provider's randomness comes from (ids, random_* results).
// The real source is OpenSSL's CSPRNG; tests use a seeded fake for repeatable values.

#include <cstdint>
#include <memory>
#include <string>

namespace strata {

class RandomSource {
 public:
  virtual ~RandomSource() = default;
  //! Fills `out` with `n` random bytes.
  virtual void Fill(uint8_t* out, size_t n) = 0;

  //! A uniform integer in [0, bound), bound > 0 (rejection sampling, no modulo bias).
  uint64_t Uniform(uint64_t bound);
  //! `n` random bytes as a string.
  std::string Bytes(size_t n);
  //! A random version-4 UUID: "8-4-4-4-12" lower-case hex.
  std::string Uuid();
};

//! OpenSSL RAND_bytes.
std::shared_ptr<RandomSource> SystemRandom();

//! A deterministic generator (splitmix64) for tests.
class SeededRandom : public RandomSource {
 public:
  explicit SeededRandom(uint64_t seed) : state_(seed) {}
  void Fill(uint8_t* out, size_t n) override;

 private:
  uint64_t state_;
};

}  // namespace strata
