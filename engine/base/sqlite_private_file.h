#pragma once
// Database files are private: the state (secrets in clear when no key is set) and the
// sandbox's world (its CA's private key) must not be readable by other users.
//
// SQLite creates a database's companions (-wal, -shm, -journal) with the database file's
// own permission bits, so making the main file 0600 before SQLite opens it is enough for
// the files SQLite makes from then on.

#include <string>

namespace strata::sqlite {

//! Before a read-write open of the database at `path`:
//!  - missing: creates it empty with mode 0600 exactly (the umask cannot widen or narrow it);
//!  - present with group/other (or execute) bits: takes those bits away (0644 -> 0600,
//!    0640 -> 0600; 0400 stays 0400: a file the user made read-only stays read-only).
//!    Silently: the file is Strata's own, and the only ways it got wider are an older
//!    Strata and a plain `cp`; a warning would only say what was already fixed.
//!  - companions left by an earlier run get the main file's mode, as SQLite would have made
//!    them. That tightens old ones, and repairs those a read-only command created while the
//!    file was read-only (0400), which would otherwise keep writes failing once it is
//!    writable again.
//! Failures (a read-only directory, a file owned by someone else) are left for SQLite's
//! open to report in its own words.
void PrepareDatabaseFile(const std::string& path);

}  // namespace strata::sqlite
