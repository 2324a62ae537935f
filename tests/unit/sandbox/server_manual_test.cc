// Not a test: keeps a sandbox up for manual checks with real clients (aws, curl), printing
// its URLs and CA, until `strata sandbox serve` does that:
//   STRATA_SANDBOX_SERVE_SECONDS=60 strata_sandbox_test --gtest_also_run_disabled_tests
//       --gtest_filter='*ServeForManualChecks'
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <thread>

#include "tests/unit/sandbox/server_test_support.h"

namespace strata::sandbox {
namespace {

TEST(SandboxManual, DISABLED_ServeForManualChecks) {
  const char* seconds = std::getenv("STRATA_SANDBOX_SERVE_SECONDS");
  auto sandbox = testing::StartSandbox();
  std::cout << "url " << sandbox->url() << "\ncluster " << sandbox->cluster_url() << "\n" << sandbox->ca_pem() << std::flush;
  std::this_thread::sleep_for(std::chrono::seconds(seconds ? std::atoi(seconds) : 30));
}

}  // namespace
}  // namespace strata::sandbox
