#include <iostream>

#include "engine/cli/command.h"
#include "state/interrupt.h"

int main(int argc, char** argv) {
  // Before any thread starts: SIGINT/SIGTERM release every held state lock, then exit.
  strata::state::InstallInterruptHandler();
  return strata::cli::RunCli(argc, argv, std::cin, std::cout, std::cerr);
}
