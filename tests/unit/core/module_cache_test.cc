// ModuleCache: a module directory is parsed once, and again only after its files changed.

#include <gtest/gtest.h>

#include "engine/core/module_cache.h"
#include "tests/unit/support/temp_dir.h"

namespace strata {
namespace {

using test_support::TempDir;

TEST(ModuleCacheTest, ParsesADirectoryOnceWhileItsFilesStayTheSame) {
  TempDir dir;
  dir.Write("stage/main.yaml", "outputs:\n  a: { value: 1 }\n");
  SourceRegistry sources;
  ModuleCache cache;
  Diagnostics diags;
  auto first = cache.Load(dir.File("stage"), sources, diags);
  auto second = cache.Load(dir.File("stage"), sources, diags);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first.get(), second.get());  // the same parse, not a second one
  EXPECT_FALSE(diags.HasErrors());
}

TEST(ModuleCacheTest, ReadsAgainAfterAFileChangesOrIsAdded) {
  TempDir dir;
  dir.Write("stage/main.yaml", "outputs:\n  a: { value: 1 }\n");
  SourceRegistry sources;
  ModuleCache cache;
  Diagnostics diags;
  auto first = cache.Load(dir.File("stage"), sources, diags);
  dir.Write("stage/main.yaml", "outputs:\n  a: { value: 1 }\n  b: { value: 2 }\n");
  auto changed = cache.Load(dir.File("stage"), sources, diags);
  ASSERT_NE(changed, nullptr);
  EXPECT_NE(first.get(), changed.get());
  EXPECT_EQ(changed->outputs.size(), 2u);

  dir.Write("stage/more.yaml", "outputs:\n  c: { value: 3 }\n");
  auto added = cache.Load(dir.File("stage"), sources, diags);
  ASSERT_NE(added, nullptr);
  EXPECT_EQ(added->outputs.size(), 3u);
}

TEST(ModuleCacheTest, ReportsALoadsErrorsEachTimeItIsAskedFor) {
  TempDir dir;
  dir.Write("stage/main.yaml", "resources:\n  broken: [\n");
  SourceRegistry sources;
  ModuleCache cache;
  for (int i = 0; i < 2; ++i) {
    Diagnostics diags;
    cache.Load(dir.File("stage"), sources, diags);
    ASSERT_TRUE(diags.HasErrors());
    EXPECT_EQ(diags.items()[0].summary, "Invalid YAML");
  }
}

}  // namespace
}  // namespace strata
