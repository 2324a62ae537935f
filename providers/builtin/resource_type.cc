#include "providers/builtin/resource_type.h"

namespace strata {

BuiltinEnv BuiltinEnv::Real() {
  return {std::make_shared<base::SystemRandom>(), std::make_shared<base::SystemClock>(), LocalFileSystem(),
          PosixProcessRunner()};
}

}  // namespace strata
