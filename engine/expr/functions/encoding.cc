#include "engine/expr/function.h"

namespace strata {

void RegisterEncodingFunctions(FunctionTable& /*table*/) {}

}  // namespace strata
