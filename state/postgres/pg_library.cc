#include "state/postgres/pg_library.h"

#include <dlfcn.h>

#include <mutex>

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

template <typename F>
bool ResolvePq(void* handle, const char* name, F& out, std::string& error) {
  out = reinterpret_cast<F>(dlsym(handle, name));
  if (out == nullptr && error.empty()) error = std::string(STRATA_LIBPQ_SONAME " has no ") + name;
  return out != nullptr;
}

LoadedLibpq LoadPq() {
  LoadedLibpq l;
  void* handle = dlopen(STRATA_LIBPQ_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    l.error = std::string("cannot load " STRATA_LIBPQ_SONAME " (") + (why ? why : "unknown error") +
              "): install libpq (Debian: apt-get install libpq5) to keep state on PostgreSQL";
    return l;
  }
  PqLibrary& p = l.library;
  bool all = ResolvePq(handle, "PQconnectdbParams", p.connectdb_params, l.error) &
             ResolvePq(handle, "PQstatus", p.status, l.error) &
             ResolvePq(handle, "PQerrorMessage", p.error_message, l.error) &
             ResolvePq(handle, "PQfinish", p.finish, l.error) & ResolvePq(handle, "PQpass", p.pass, l.error) &
             ResolvePq(handle, "PQprepare", p.prepare, l.error) &
             ResolvePq(handle, "PQexecPrepared", p.exec_prepared, l.error) &
             ResolvePq(handle, "PQexec", p.exec, l.error) &
             ResolvePq(handle, "PQresultStatus", p.result_status, l.error) &
             ResolvePq(handle, "PQclear", p.clear, l.error) &
             ResolvePq(handle, "PQresultErrorMessage", p.result_error_message, l.error) &
             ResolvePq(handle, "PQresultErrorField", p.result_error_field, l.error) &
             ResolvePq(handle, "PQntuples", p.ntuples, l.error) &
             ResolvePq(handle, "PQgetvalue", p.getvalue, l.error) &
             ResolvePq(handle, "PQgetlength", p.getlength, l.error) &
             ResolvePq(handle, "PQgetisnull", p.getisnull, l.error) &
             ResolvePq(handle, "PQcmdTuples", p.cmd_tuples, l.error) &
             ResolvePq(handle, "PQbackendPID", p.backend_pid, l.error) &
             ResolvePq(handle, "PQconninfoParse", p.conninfo_parse, l.error) &
             ResolvePq(handle, "PQconninfoFree", p.conninfo_free, l.error) &
             ResolvePq(handle, "PQfreemem", p.freemem, l.error) &
             ResolvePq(handle, "PQsetNoticeProcessor", p.set_notice_processor, l.error) &
             ResolvePq(handle, "PQsendQueryParams", p.send_query_params, l.error) &
             ResolvePq(handle, "PQsendPrepare", p.send_prepare, l.error) &
             ResolvePq(handle, "PQsendQueryPrepared", p.send_query_prepared, l.error) &
             ResolvePq(handle, "PQgetResult", p.get_result, l.error) &
             ResolvePq(handle, "PQtransactionStatus", p.transaction_status, l.error);
  // Optional: a libpq older than 14 has no pipeline mode (all three, or none is used).
  p.enter_pipeline_mode = reinterpret_cast<decltype(p.enter_pipeline_mode)>(dlsym(handle, "PQenterPipelineMode"));
  p.exit_pipeline_mode = reinterpret_cast<decltype(p.exit_pipeline_mode)>(dlsym(handle, "PQexitPipelineMode"));
  p.pipeline_sync = reinterpret_cast<decltype(p.pipeline_sync)>(dlsym(handle, "PQpipelineSync"));
  if (!p.enter_pipeline_mode || !p.exit_pipeline_mode || !p.pipeline_sync) {
    p.enter_pipeline_mode = nullptr;
  }
  // The handle stays open for the life of the process: the functions are used until exit.
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
