#pragma once
// libpq, loaded the first time a PostgreSQL state is opened instead of when strata starts
// (as libcurl is: providers/aws/http/curl_library.h). libpq pulls in some twenty-five shared
// libraries of its own (Kerberos, LDAP, GnuTLS, ...) that a `strata version` or a project on
// SQLite never needs. The functions come from the libpq the build compiled against (its
// headers and soname).

#include <libpq-fe.h>

#include <string>

namespace strata::state::pg {

//! The libpq functions the store calls.
struct PqLibrary {
  PGconn* (*connectdb_params)(const char* const*, const char* const*, int);
  ConnStatusType (*status)(const PGconn*);
  char* (*error_message)(const PGconn*);
  void (*finish)(PGconn*);
  char* (*pass)(const PGconn*);
  PGresult* (*prepare)(PGconn*, const char*, const char*, int, const Oid*);
  PGresult* (*exec_prepared)(PGconn*, const char*, int, const char* const*, const int*, const int*, int);
  PGresult* (*exec)(PGconn*, const char*);
  ExecStatusType (*result_status)(const PGresult*);
  void (*clear)(PGresult*);
  char* (*result_error_message)(const PGresult*);
  char* (*result_error_field)(const PGresult*, int);
  int (*ntuples)(const PGresult*);
  char* (*getvalue)(const PGresult*, int, int);
  int (*getlength)(const PGresult*, int, int);
  int (*getisnull)(const PGresult*, int, int);
  char* (*cmd_tuples)(PGresult*);
  int (*backend_pid)(const PGconn*);
  PQconninfoOption* (*conninfo_parse)(const char*, char**);
  void (*conninfo_free)(PQconninfoOption*);
  void (*freemem)(void*);
  PQnoticeProcessor (*set_notice_processor)(PGconn*, PQnoticeProcessor, void*);
  // Sending without waiting (every libpq): the pipeline's statements.
  int (*send_query_params)(PGconn*, const char*, int, const Oid*, const char* const*, const int*, const int*, int);
  int (*send_prepare)(PGconn*, const char*, const char*, int, const Oid*);
  int (*send_query_prepared)(PGconn*, const char*, int, const char* const*, const int*, const int*, int);
  PGresult* (*get_result)(PGconn*);
  PGTransactionStatusType (*transaction_status)(const PGconn*);
  // Pipeline mode (libpq >= 14): null when the libpq loaded is older; the store then waits
  // for each statement in turn (pg_connection.h, Connection::Pipeline).
  int (*enter_pipeline_mode)(PGconn*);
  int (*exit_pipeline_mode)(PGconn*);
  int (*pipeline_sync)(PGconn*);
};

//! Loads libpq on the first call (thread-safe) and returns it; nullptr when it cannot be
//! loaded, with `error` saying why and what to install. Later calls return the same answer.
const PqLibrary* LoadLibpq(std::string* error);

}  // namespace strata::state::pg
