#include "engine/expr/function.h"

namespace strata {

void RegisterNetworkFunctions(FunctionTable& /*table*/) {}

}  // namespace strata
