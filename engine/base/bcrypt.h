#pragma once
// bcrypt password hashes through libxcrypt, written as Go's golang.org/x/crypto/bcrypt
// writes them ("$2a$<cost>$<salt><hash>"): the bcrypt() function and random_password's
// bcrypt_hash.

#include <string>

#include "engine/base/random.h"

namespace strata::base {

constexpr int kBcryptMinCost = 4;
constexpr int kBcryptMaxCost = 31;
constexpr int kBcryptDefaultCost = 10;
//! bcrypt reads at most this many bytes of a password.
constexpr size_t kBcryptMaxPasswordBytes = 72;

//! The hash of `password` at `cost` (kBcryptMinCost..kBcryptMaxCost) with a 16-byte salt from
//! `random`. Empty when libxcrypt refuses (a cost out of range, a password with a NUL byte).
std::string Bcrypt(RandomSource& random, const std::string& password, int cost = kBcryptDefaultCost);

}  // namespace strata::base
