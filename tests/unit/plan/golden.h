#pragma once
// Compares text with tests/golden/plan/<name>; STRATA_UPDATE_GOLDEN=1 rewrites the file.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace strata::plan_test {

inline void ExpectGolden(const std::string& name, const std::string& actual) {
  namespace fs = std::filesystem;
  fs::path golden = fs::path(STRATA_SOURCE_DIR) / "tests" / "golden" / "plan" / name;
  const char* update = std::getenv("STRATA_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    fs::create_directories(golden.parent_path());
    std::ofstream(golden, std::ios::binary) << actual;
    return;
  }
  ASSERT_TRUE(fs::exists(golden)) << golden << " is missing; run with STRATA_UPDATE_GOLDEN=1 to create it.";
  std::ifstream in(golden, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), actual) << "golden " << golden << " differs; STRATA_UPDATE_GOLDEN=1 regenerates it.";
}

}  // namespace strata::plan_test
