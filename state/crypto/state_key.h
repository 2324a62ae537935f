#pragma once
// The key that encrypts sensitive values at rest, and where it comes from.
//
// Sources, first match wins:
//   1. the STRATA_STATE_KEY environment variable;
//   2. the file named by `state.key_file` in strata.yaml (relative to the project root).
// STRATA_STATE_OLD_KEY (same formats) adds a key that is only used to *read*: set it with a
// new STRATA_STATE_KEY and run `strata state rekey` to rotate.
//
// Accepted text (surrounding whitespace ignored):
//   - 64 hex digits: the 32 key bytes;
//   - base64 of exactly 32 bytes (e.g. `openssl rand -base64 32`): the key bytes;
//   - anything else is a passphrase: key = PBKDF2-HMAC-SHA256(passphrase,
//     salt "strata-state-key/v1", 210000 iterations, 32 bytes). The salt is fixed so that the
//     same passphrase gives the same key everywhere; prefer a random key.
//
// A key's id is the first 8 bytes of SHA-256(key) in hex: recorded with every value it
// seals, so that a wrong key is named as such instead of failing obscurely.

#include <optional>
#include <string>
#include <vector>

#include "state/environment.h"
#include "state/status.h"

namespace strata::state::crypto {

struct StateKey {
  std::string bytes;  // exactly 32
  std::string id;     // 16 hex digits
};

//! Parses key text per the rules above. InvalidArgument when empty.
StateResult<StateKey> ParseStateKey(const std::string& text);

//! The keys a store works with: `primary` seals new values (none: values are stored in
//! clear); every key, primary and old ones, may open.
struct KeyRing {
  std::optional<StateKey> primary;
  std::vector<StateKey> old_keys;

  const StateKey* Find(const std::string& id) const;
  bool empty() const { return !primary && old_keys.empty(); }
};

//! Builds the key ring from STRATA_STATE_KEY / `key_file` / STRATA_STATE_OLD_KEY. A key file
//! that cannot be read or a malformed key is an error naming the source; no key at all is
//! not (the ring is empty, and `init` should warn that secrets are stored in clear).
StateResult<KeyRing> LoadKeyRing(StateEnvironment& env, const std::string& key_file);

}  // namespace strata::state::crypto
