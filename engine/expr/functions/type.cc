#include "engine/expr/function.h"

namespace strata {

void RegisterTypeFunctions(FunctionTable& /*table*/) {}

}  // namespace strata
