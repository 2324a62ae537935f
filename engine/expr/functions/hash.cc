#include "engine/expr/function.h"

namespace strata {

void RegisterHashFunctions(FunctionTable& /*table*/) {}

}  // namespace strata
