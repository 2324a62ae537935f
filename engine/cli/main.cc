#include <iostream>

#include "engine/base/keep_until_exit.h"
#include "engine/cli/command.h"
#include "engine/cli/interrupts.h"

int main(int argc, char** argv) {
  // Before any thread starts: SIGINT/SIGTERM release every held state lock, then exit (or,
  // during an apply, stop it gracefully first).
  strata::cli::InstallCliInterruptHandler();
  // One command per process: what it planned and parsed is left for the kernel to free.
  strata::base::EnableKeepUntilExit();
  return strata::cli::RunCli(argc, argv, std::cin, std::cout, std::cerr);
}
