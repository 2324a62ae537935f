#pragma once
// PostgreSQL connection strings as the user writes them (strata.yaml state.url or
// STRATA_PG_URL): a postgres:// URI or libpq's key=value pairs. What is shown of one never
// holds its password.

#include <string>

namespace strata::state::pg {

//! The connection string with its password replaced by "***": the user-info password of a
//! URI (postgres://user:***@host/db), a `password=` query parameter, or a `password=` pair.
//! Everything else is kept, so the message still says which server and database.
std::string MaskConnectionUrl(const std::string& conninfo);

//! The password the string itself carries (empty when none), for scrubbing messages.
std::string ConninfoPassword(const std::string& conninfo);

//! `text` with every occurrence of `secret` replaced by "***" (text unchanged when secret
//! is empty).
std::string ScrubSecret(std::string text, const std::string& secret);

//! Empty when `name` can be the `schema` setting (a lower-case identifier: letters, digits
//! and '_', not starting with a digit, at most 63 characters, not pg_*), else why not.
std::string InvalidSchemaReason(const std::string& name);

}  // namespace strata::state::pg
