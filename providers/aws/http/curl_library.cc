#include "providers/aws/http/curl_library.h"

#include <dlfcn.h>

#include <mutex>

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

template <typename F>
bool Resolve(void* handle, const char* name, F& out, std::string& error) {
  out = reinterpret_cast<F>(dlsym(handle, name));
  if (out == nullptr && error.empty()) error = std::string(STRATA_CURL_SONAME " has no ") + name;
  return out != nullptr;
}

Loaded Load() {
  Loaded l;
  void* handle = dlopen(STRATA_CURL_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    l.error = std::string("cannot load " STRATA_CURL_SONAME " (") + (why ? why : "unknown error") +
              "): install libcurl (Debian: apt-get install libcurl4) to reach AWS or Kubernetes";
    return l;
  }
  CURLcode (*global_init)(long) = nullptr;
  CurlLibrary& c = l.library;
  bool all = Resolve(handle, "curl_global_init", global_init, l.error) &
             Resolve(handle, "curl_easy_init", c.easy_init, l.error) &
             Resolve(handle, "curl_easy_cleanup", c.easy_cleanup, l.error) &
             Resolve(handle, "curl_easy_reset", c.easy_reset, l.error) &
             Resolve(handle, "curl_easy_setopt", c.easy_setopt, l.error) &
             Resolve(handle, "curl_easy_getinfo", c.easy_getinfo, l.error) &
             Resolve(handle, "curl_easy_perform", c.easy_perform, l.error) &
             Resolve(handle, "curl_easy_strerror", c.easy_strerror, l.error) &
             Resolve(handle, "curl_slist_append", c.slist_append, l.error) &
             Resolve(handle, "curl_slist_free_all", c.slist_free_all, l.error);
  if (!all) return l;
  if (CURLcode rc = global_init(CURL_GLOBAL_DEFAULT); rc != CURLE_OK) {
    l.error = "libcurl failed to initialise (curl_global_init returned " + std::to_string(static_cast<int>(rc)) + ")";
    return l;
  }
  // The handle stays open for the life of the process: the functions are used until exit.
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
