// KeepUntilExit: off (every caller but the CLI's main), the caller's object stays where it
// is and is destroyed as usual; on, it is moved away and never destroyed. One test, in this
// order: turning keeping on cannot be undone within a process.

#include <gtest/gtest.h>

#include <memory>

#include "engine/base/keep_until_exit.h"

namespace strata::base {
namespace {

struct Counted {
  explicit Counted(int* destroyed) : destroyed(destroyed) {}
  Counted(Counted&& other) noexcept : destroyed(other.destroyed) { other.destroyed = nullptr; }
  ~Counted() {
    if (destroyed) ++*destroyed;
  }
  int* destroyed;
};

TEST(KeepUntilExitTest, OffLeavesTheObjectOnKeepsItUndestroyed) {
  int destroyed = 0;
  ASSERT_FALSE(KeepingUntilExit());
  {
    auto object = std::make_unique<Counted>(&destroyed);
    KeepUntilExit(object);
    EXPECT_NE(object, nullptr);  // untouched: the caller still owns it
  }
  EXPECT_EQ(destroyed, 1);

  EnableKeepUntilExit();
  EXPECT_TRUE(KeepingUntilExit());
  {
    auto object = std::make_unique<Counted>(&destroyed);
    KeepUntilExit(object);
    EXPECT_EQ(object, nullptr);  // moved where it is kept
    Counted plain(&destroyed);
    KeepUntilExit(plain);
    EXPECT_EQ(plain.destroyed, nullptr);
  }
  EXPECT_EQ(destroyed, 1);  // neither kept object was destroyed
}

}  // namespace
}  // namespace strata::base
