#pragma once
// Kubernetes' resource quantities ("500m", "0.5", "1Gi", "1024Mi", "1e3"): the API server
// rewrites them in canonical form, so a typed resource read back compares them by value,
// never as text (Terraform's provider suppresses the same diff).

#include <string_view>

namespace strata::kubernetes {

//! Whether `a` and `b` are quantities of the same value ("0.5" and "500m", "1Gi" and
//! "1024Mi"); false when either is not a quantity.
bool EquivalentQuantities(std::string_view a, std::string_view b);

}  // namespace strata::kubernetes
