#include "providers/builtin/resource_type.h"

namespace strata {

BuiltinEnv BuiltinEnv::Real() {
  return {SystemRandom(), SystemClock(), LocalFileSystem(), PosixProcessRunner()};
}

}  // namespace strata
