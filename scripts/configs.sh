# The CMake settings of each build tree the scripts make, in one place: sourced by
# scripts/quickstart.sh, scripts/test.sh and the test that checks they agree
# (tests/e2e/scripts_test.sh). Each names every option it depends on, so that a tree
# configured by one script and reused by another never keeps a stale setting.
# Line tables only (-g1): file:line in backtraces and sanitizer reports, and a third less
# compile time than full -g (README "Building"); shared by quickstart and the test run,
# which reuse one build/ tree.
# Unity batches of the libraries: a clean strata build takes a third of the CPU (README).
release_flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" -DSTRATA_UNITY_BUILD=ON)
quickstart_config=("${release_flags[@]}" -DSTRATA_TESTS=OFF -DSTRATA_BENCH=OFF -DSTRATA_SANITIZE=OFF)
test_config=("${release_flags[@]}" -DSTRATA_TESTS=ON -DSTRATA_BENCH=ON -DSTRATA_SANITIZE=OFF)
# The sanitized tree: line tables only (-g1) keep file:line in reports and build about a
# quarter faster than full -g on 2 cores; -O1 runs the sanitized tests quicker than -O0.
asan_config=(-DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" -DSTRATA_UNITY_BUILD=ON -DSTRATA_TESTS=ON -DSTRATA_BENCH=OFF -DSTRATA_SANITIZE=ON)
