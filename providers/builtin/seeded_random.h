#pragma once
// The randomness of random_integer and random_shuffle, which take an optional `seed`: with
// a seed, a generator seeded from it (the seed string's CRC-64/ISO, as hashicorp/random
// derives its seed), so the same seed gives the same result on every run and machine;
// without one, the environment's source. hashicorp/random feeds that number to Go's
// math/rand, which Strata does not reproduce: a seed's result is stable here but differs
// from the one Terraform would give for the same seed.

#include <memory>
#include <string>

#include "engine/base/random.h"

namespace strata::builtin {

//! CRC-64 with the ISO 3309 polynomial (Go's crc64.ISO table), as hashicorp/random hashes
//! a seed.
uint64_t Crc64Iso(const std::string& data);

//! A generator seeded from `seed`, or `fallback` when `seed` is empty.
std::shared_ptr<base::RandomSource> RandomForSeed(const std::string& seed,
                                                  std::shared_ptr<base::RandomSource> fallback);

}  // namespace strata::builtin
