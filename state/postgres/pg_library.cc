#include "state/postgres/pg_library.h"

#include <mutex>

#include "engine/base/shared_library.h"

namespace strata::state::pg {
namespace {

// The soname of the libpq the build compiled against (CMake passes it; Debian's libpq-dev
// gives libpq.so.5).
#ifndef STRATA_LIBPQ_SONAME
#define STRATA_LIBPQ_SONAME "libpq.so.5"
#endif

struct LoadedLibpq {
  PqLibrary library{};
  bool ok = false;
  std::string error;
};

LoadedLibpq LoadPq() {
  LoadedLibpq l;
  base::SharedLibrary lib =
      base::SharedLibrary::Open(STRATA_LIBPQ_SONAME, "install libpq (Debian: apt-get install libpq5) to keep state on PostgreSQL");
  if (!lib.loaded()) {
    l.error = lib.error();
    return l;
  }
  PqLibrary& p = l.library;
  bool all = lib.Resolve("PQconnectdbParams", p.connectdb_params) &
             lib.Resolve("PQstatus", p.status) &
             lib.Resolve("PQerrorMessage", p.error_message) &
             lib.Resolve("PQfinish", p.finish) &
             lib.Resolve("PQpass", p.pass) &
             lib.Resolve("PQprepare", p.prepare) &
             lib.Resolve("PQexecPrepared", p.exec_prepared) &
             lib.Resolve("PQexec", p.exec) &
             lib.Resolve("PQresultStatus", p.result_status) &
             lib.Resolve("PQclear", p.clear) &
             lib.Resolve("PQresultErrorMessage", p.result_error_message) &
             lib.Resolve("PQresultErrorField", p.result_error_field) &
             lib.Resolve("PQntuples", p.ntuples) &
             lib.Resolve("PQgetvalue", p.getvalue) &
             lib.Resolve("PQgetlength", p.getlength) &
             lib.Resolve("PQgetisnull", p.getisnull) &
             lib.Resolve("PQcmdTuples", p.cmd_tuples) &
             lib.Resolve("PQbackendPID", p.backend_pid) &
             lib.Resolve("PQconninfoParse", p.conninfo_parse) &
             lib.Resolve("PQconninfoFree", p.conninfo_free) &
             lib.Resolve("PQfreemem", p.freemem) &
             lib.Resolve("PQsetNoticeProcessor", p.set_notice_processor) &
             lib.Resolve("PQsendQueryParams", p.send_query_params) &
             lib.Resolve("PQsendPrepare", p.send_prepare) &
             lib.Resolve("PQsendQueryPrepared", p.send_query_prepared) &
             lib.Resolve("PQgetResult", p.get_result) &
             lib.Resolve("PQtransactionStatus", p.transaction_status);
  // Optional: a libpq older than 14 has no pipeline mode (all three, or none is used).
  lib.ResolveOptional("PQenterPipelineMode", p.enter_pipeline_mode);
  lib.ResolveOptional("PQexitPipelineMode", p.exit_pipeline_mode);
  lib.ResolveOptional("PQpipelineSync", p.pipeline_sync);
  if (!p.enter_pipeline_mode || !p.exit_pipeline_mode || !p.pipeline_sync) {
    p.enter_pipeline_mode = nullptr;
  }
  l.error = lib.error();
  l.ok = all;
  return l;
}

}  // namespace

const PqLibrary* LoadLibpq(std::string* error) {
  static std::once_flag once;
  static LoadedLibpq loaded;
  std::call_once(once, [] { loaded = LoadPq(); });
  if (!loaded.ok) {
    if (error) *error = loaded.error;
    return nullptr;
  }
  return &loaded.library;
}

}  // namespace strata::state::pg
