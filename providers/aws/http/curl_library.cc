#include "providers/aws/http/curl_library.h"

#include <mutex>

#include "engine/base/shared_library.h"

namespace strata::aws {
namespace {

// The soname of the libcurl the build linked against (CMake passes it; Debian's
// libcurl4-openssl-dev gives libcurl.so.4).
#ifndef STRATA_CURL_SONAME
#define STRATA_CURL_SONAME "libcurl.so.4"
#endif

struct Loaded {
  CurlLibrary library{};
  bool ok = false;
  std::string error;
};

Loaded Load() {
  Loaded l;
  base::SharedLibrary lib =
      base::SharedLibrary::Open(STRATA_CURL_SONAME, "install libcurl (Debian: apt-get install libcurl4) to reach AWS or Kubernetes");
  if (!lib.loaded()) {
    l.error = lib.error();
    return l;
  }
  CURLcode (*global_init)(long) = nullptr;
  CurlLibrary& c = l.library;
  bool all = lib.Resolve("curl_global_init", global_init) &
             lib.Resolve("curl_easy_init", c.easy_init) &
             lib.Resolve("curl_easy_cleanup", c.easy_cleanup) &
             lib.Resolve("curl_easy_reset", c.easy_reset) &
             lib.Resolve("curl_easy_setopt", c.easy_setopt) &
             lib.Resolve("curl_easy_getinfo", c.easy_getinfo) &
             lib.Resolve("curl_easy_perform", c.easy_perform) &
             lib.Resolve("curl_easy_strerror", c.easy_strerror) &
             lib.Resolve("curl_slist_append", c.slist_append) &
             lib.Resolve("curl_slist_free_all", c.slist_free_all);
  l.error = lib.error();
  if (!all) return l;
  if (CURLcode rc = global_init(CURL_GLOBAL_DEFAULT); rc != CURLE_OK) {
    l.error = "libcurl failed to initialise (curl_global_init returned " + std::to_string(static_cast<int>(rc)) + ")";
    return l;
  }
  l.ok = true;
  return l;
}

}  // namespace

const CurlLibrary* LoadCurl(std::string* error) {
  static std::once_flag once;
  static Loaded loaded;
  std::call_once(once, [] { loaded = Load(); });
  if (!loaded.ok) {
    if (error) *error = loaded.error;
    return nullptr;
  }
  return &loaded.library;
}

}  // namespace strata::aws
