#include <iostream>

#include "engine/cli/command.h"

int main(int argc, char** argv) {
  return strata::cli::RunCli(argc, argv, std::cin, std::cout, std::cerr);
}
