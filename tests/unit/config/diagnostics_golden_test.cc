// Golden files for diagnostics as people and machines read them. The broken project under
// tests/golden/fixtures/broken/ is loaded and every diagnostic rendered; the result must
// match tests/golden/diagnostics/broken.{txt,json}. Regenerate with STRATA_UPDATE_GOLDEN=1.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "engine/core/engine.h"
#include "engine/diag/render.h"
#include "engine/cli/wiring.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir = STRATA_SOURCE_DIR;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Compares `actual` to the golden file, or rewrites the golden file when asked to.
void ExpectGolden(const std::string& actual, const std::string& name) {
  fs::path golden = kSourceDir / "tests/golden/diagnostics" / name;
  const char* update = std::getenv("STRATA_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream(golden, std::ios::binary) << actual;
    GTEST_SKIP() << "updated " << golden;
  }
  ASSERT_TRUE(fs::exists(golden)) << golden << " is missing; run with STRATA_UPDATE_GOLDEN=1 to create it.";
  EXPECT_EQ(actual, ReadFile(golden)) << "Rendered diagnostics differ from " << golden
                                      << "; if the change is intended, rerun with STRATA_UPDATE_GOLDEN=1.";
}

class DiagnosticsGoldenTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fixture_ = fs::canonical(kSourceDir / "tests/golden/fixtures/broken").string();
    auto project = engine_.OpenProject(fixture_, diags_);
    ASSERT_TRUE(project.has_value());
    engine_.LoadStage(*project, "app", diags_);
  }

  std::string fixture_;
  SchemaRegistry schemas_ = cli::DefaultSchemas();
  SourceRegistry sources_;
  Engine engine_{schemas_, sources_};
  Diagnostics diags_;
};

TEST_F(DiagnosticsGoldenTest, BrokenStageRendered) {
  EXPECT_GE(diags_.ErrorCount(), 8u);
  ExpectGolden(RenderDiagnostics(diags_, &sources_, RenderOptions{false, fixture_}), "broken.txt");
}

TEST_F(DiagnosticsGoldenTest, BrokenStageJson) {
  nlohmann::json j = DiagnosticsToJson(diags_, &sources_);
  // File names relative to the fixture, so that the golden file is machine-independent.
  std::string root = fixture_ + "/";
  ASSERT_TRUE(j.contains("diagnostics"));
  for (auto& d : j["diagnostics"]) {
    if (!d.contains("range")) continue;
    std::string file = d["range"]["filename"];
    if (file.rfind(root, 0) == 0) d["range"]["filename"] = file.substr(root.size());
    std::string detail = d["detail"];
    for (size_t at = detail.find(root); at != std::string::npos; at = detail.find(root, at)) detail.erase(at, root.size());
    d["detail"] = detail;
  }
  ExpectGolden(j.dump(2) + "\n", "broken.json");
}

TEST_F(DiagnosticsGoldenTest, ColorOnlyAddsEscapes) {
  std::string plain = RenderDiagnostics(diags_, &sources_, RenderOptions{false, fixture_});
  std::string color = RenderDiagnostics(diags_, &sources_, RenderOptions{true, fixture_});
  std::string stripped;
  for (size_t i = 0; i < color.size(); ++i) {
    if (color[i] == '\x1b') {
      i = color.find('m', i);
      continue;
    }
    stripped += color[i];
  }
  EXPECT_NE(plain, color);
  EXPECT_EQ(stripped, plain);
}

// Positions count bytes; the caret is placed by the columns the text before it takes on the
// screen (é one, 日 two), and the underline is as wide as its text.
TEST(DiagnosticsGoldenUnicodeTest, CaretStandsUnderTheMistakeAfterNonAsciiText) {
  std::string fixture = fs::canonical(kSourceDir / "tests/golden/fixtures/unicode").string();
  SchemaRegistry schemas = cli::DefaultSchemas();
  SourceRegistry sources;
  Engine engine{schemas, sources};
  Diagnostics diags;
  auto project = engine.OpenProject(fixture, diags);
  ASSERT_TRUE(project.has_value());
  engine.LoadStage(*project, "app", diags);
  EXPECT_EQ(diags.ErrorCount(), 3u);
  ExpectGolden(RenderDiagnostics(diags, &sources, RenderOptions{false, fixture}), "unicode.txt");
}

}  // namespace
}  // namespace strata
