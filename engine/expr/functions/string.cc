#include "engine/expr/function.h"

namespace strata {

void RegisterStringFunctions(FunctionTable& /*table*/) {}

}  // namespace strata
