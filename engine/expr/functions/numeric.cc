#include "engine/expr/function.h"

namespace strata {

void RegisterNumericFunctions(FunctionTable& /*table*/) {}

}  // namespace strata
