#pragma once

namespace strata {

inline constexpr const char* kStrataVersion = "0.1.0";

}  // namespace strata
