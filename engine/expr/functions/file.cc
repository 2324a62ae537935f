#include "engine/expr/function.h"

namespace strata {

void RegisterFileFunctions(FunctionTable& /*table*/) {}

}  // namespace strata
