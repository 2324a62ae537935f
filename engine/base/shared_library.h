#pragma once
// A shared library loaded at run time (dlopen) rather than linked: libcurl and libpq cost
// start-up time in every command, yet only commands that reach AWS, Kubernetes or a
// PostgreSQL state use them. One loader, so that both report a missing library or symbol
// the same way.

#include <string>

namespace strata::base {

class SharedLibrary {
 public:
  //! Loads `soname` for the life of the process (never closed: its functions are used until
  //! exit). On failure error() reads "cannot load SONAME (why): HINT".
  static SharedLibrary Open(const char* soname, const std::string& hint);

  bool loaded() const { return handle_ != nullptr; }
  //! The first problem: the library could not be loaded, or "SONAME has no SYMBOL".
  const std::string& error() const { return error_; }

  //! Sets `out` to the function `name`; false when the library has none (error() says so).
  template <typename F>
  bool Resolve(const char* name, F& out) {
    out = reinterpret_cast<F>(Symbol(name));
    if (out == nullptr && error_.empty()) error_ = soname_ + " has no " + name;
    return out != nullptr;
  }
  //! Sets `out` to the function `name`, or null when the library has none (a function only
  //! newer versions have): no error.
  template <typename F>
  void ResolveOptional(const char* name, F& out) {
    out = reinterpret_cast<F>(Symbol(name));
  }

 private:
  void* Symbol(const char* name) const;

  void* handle_ = nullptr;
  std::string soname_;
  std::string error_;
};

}  // namespace strata::base
