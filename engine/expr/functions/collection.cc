#include "engine/expr/function.h"

namespace strata {

void RegisterCollectionFunctions(FunctionTable& /*table*/) {}

}  // namespace strata
