#pragma once
// Randomness seam: where ids, generated values (random_id, random_password, terraform_data
// ids) and retry jitter get their randomness, so tests can make it repeatable.
//
// Contract: Fill is the one primitive; the helpers build on it and are the same for every
// source. SystemRandom (OpenSSL's CSPRNG) and FixedRandom are thread-safe; SeededRandom is
// not (a test drives it from one thread). SystemRandom throws std::runtime_error when
// OpenSSL has no entropy to give: nothing sensible can go on without it.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace strata::base {

class RandomSource {
 public:
  virtual ~RandomSource() = default;
  //! Fills `out` with `n` random bytes.
  virtual void Fill(uint8_t* out, size_t n) = 0;
  //! A uniform double in [0, 1) (53 random bits), e.g. for backoff jitter.
  virtual double NextUnit();

  //! A uniform integer in [0, bound) (rejection sampling, no modulo bias); 0 when bound <= 1.
  uint64_t Uniform(uint64_t bound);
  //! `n` random bytes as a string.
  std::string Bytes(size_t n);
  //! A random version-4 UUID: "8-4-4-4-12" lower-case hex.
  std::string Uuid();
};

//! Formats 16 random bytes as a version-4 UUID (sets the version and variant bits).
std::string FormatUuidV4(std::string_view sixteen_bytes);

//! OpenSSL's RAND_bytes.
class SystemRandom final : public RandomSource {
 public:
  void Fill(uint8_t* out, size_t n) override;
};

//! A deterministic generator (splitmix64) for tests: the same seed gives the same bytes.
class SeededRandom final : public RandomSource {
 public:
  explicit SeededRandom(uint64_t seed) : state_(seed) {}
  void Fill(uint8_t* out, size_t n) override;

 private:
  uint64_t state_;
};

//! For tests of jitter: NextUnit() is always `value` (0.999 gives the maximal backoff, 0
//! none); Fill gives zero bytes.
class FixedRandom final : public RandomSource {
 public:
  explicit FixedRandom(double value) : value_(value) {}
  void Fill(uint8_t* out, size_t n) override;
  double NextUnit() override { return value_; }

 private:
  double value_;
};

}  // namespace strata::base
