#include "engine/base/shared_library.h"

#include <dlfcn.h>

namespace strata::base {

SharedLibrary SharedLibrary::Open(const char* soname, const std::string& hint) {
  SharedLibrary library;
  library.soname_ = soname;
  library.handle_ = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (library.handle_ == nullptr) {
    const char* why = dlerror();
    library.error_ = std::string("cannot load ") + soname + " (" + (why ? why : "unknown error") + "): " + hint;
  }
  return library;
}

void* SharedLibrary::Symbol(const char* name) const { return handle_ ? dlsym(handle_, name) : nullptr; }

}  // namespace strata::base
