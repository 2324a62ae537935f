#pragma once
// Sealing of one sensitive value (its JSON text) for storage.
//
// Stored forms (always printable text):
//   "plain:<text>"                                  no key configured: stored in clear
//   "aes256gcm:<key id>:<base64(nonce ‖ ciphertext ‖ tag)>"
// with a fresh random 12-byte nonce per value, a 16-byte tag, and the key id bound as
// additional authenticated data, so that a value cannot be moved to another key's id.

#include <string>

#include "state/crypto/state_key.h"
#include "state/environment.h"
#include "state/status.h"

namespace strata::state::crypto {

//! Seals `plaintext` with ring.primary, or stores it in clear when there is none.
std::string Seal(const std::string& plaintext, const KeyRing& ring, StateEnvironment& env);

//! Opens a stored form. KeyMissing when encrypted and the ring is empty, KeyWrong when no
//! key in the ring has the recorded id or authentication fails (tampered or corrupt),
//! Corrupt when the text is not a sealed form. `what` names the value in messages
//! ("stage eks: aws_db_instance.main attribute password").
StateResult<std::string> Open(const std::string& sealed, const KeyRing& ring, const std::string& what);

//! The key id a stored form was sealed with; "" for clear values or unknown forms.
std::string SealedKeyId(const std::string& sealed);
bool IsSealedInClear(const std::string& sealed);

}  // namespace strata::state::crypto
