#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/unit/functions/function_test_util.h"

namespace strata {
namespace {

using namespace strata::testing;
namespace fs = std::filesystem;

class FileFunctionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("strata_file_test_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    Write("hello.txt", "Hello World");
    Write("binary.dat", std::string("\xff\xfe\x00", 3));
    Write("greeting.tftpl", "Hello, ${name}!");
    Write("files/a.txt", "a");
    Write("files/b.md", "b");
    Write("files/sub/c.txt", "c");
    Write("files/sub/deep/d.txt", "d");
    ctx_.base_dir = dir_.string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Write(const std::string& relative, const std::string& content) {
    fs::create_directories((dir_ / relative).parent_path());
    std::ofstream(dir_ / relative, std::ios::binary) << content;
  }

  fs::path dir_;
  FunctionContext ctx_;
};

TEST_F(FileFunctionsTest, FileReadsRelativeToBaseDir) {
  EXPECT_EQ(Call("file", {S("hello.txt")}, ctx_), S("Hello World"));
  EXPECT_EQ(Call("file", {S((dir_ / "hello.txt").string())}), S("Hello World"));
}

TEST_F(FileFunctionsTest, FileErrorsNameTheResolvedPath) {
  FunctionError missing = CallError("file", {S("nope.txt")}, ctx_);
  EXPECT_NE(missing.message.find("no file exists at \"" + (dir_ / "nope.txt").string() + "\""),
            std::string::npos);
  EXPECT_EQ(missing.arg_index, 0);
  FunctionError binary = CallError("file", {S("binary.dat")}, ctx_);
  EXPECT_NE(binary.message.find("contents of \"" + (dir_ / "binary.dat").string() +
                                "\" are not valid UTF-8"),
            std::string::npos);
  EXPECT_NE(CallError("file", {S("files")}, ctx_).message.find("is a directory"),
            std::string::npos);
}

TEST_F(FileFunctionsTest, FileexistsChecksRegularFiles) {
  EXPECT_EQ(Call("fileexists", {S("hello.txt")}, ctx_), B(true));
  EXPECT_EQ(Call("fileexists", {S("nope.txt")}, ctx_), B(false));
  EXPECT_NE(CallError("fileexists", {S("files")}, ctx_).message.find("is not a regular file"),
            std::string::npos);
}

TEST_F(FileFunctionsTest, Filebase64EncodesAnyBytes) {
  EXPECT_EQ(Call("filebase64", {S("hello.txt")}, ctx_), S("SGVsbG8gV29ybGQ="));
  EXPECT_EQ(Call("filebase64", {S("binary.dat")}, ctx_), S("//4A"));
}

TEST_F(FileFunctionsTest, TemplatefileCallsTheRenderer) {
  std::string seen_path;
  ctx_.render_template = [&](const std::string& text, const std::string& filename,
                             const Value& vars) {
    seen_path = filename;
    std::string out = text;
    out.replace(out.find("${name}"), 7, vars.AsMap().at("name").AsString());
    return S(out);
  };
  EXPECT_EQ(Call("templatefile", {S("greeting.tftpl"), O({{"name", S("Ander")}})}, ctx_),
            S("Hello, Ander!"));
  EXPECT_EQ(seen_path, (dir_ / "greeting.tftpl").string());
  EXPECT_EQ(CallError("templatefile", {S("greeting.tftpl"), S("x")}, ctx_).arg_index, 1);
}

TEST_F(FileFunctionsTest, TemplatefileWithoutRendererIsAnError) {
  EXPECT_NE(
      CallError("templatefile", {S("greeting.tftpl"), O({})}, ctx_).message.find("not available"),
      std::string::npos);
}

TEST_F(FileFunctionsTest, FilesetMatchesGlobs) {
  EXPECT_EQ(Call("fileset", {S("files"), S("*.txt")}, ctx_), Set({S("a.txt")}));
  EXPECT_EQ(Call("fileset", {S("files"), S("**/*.txt")}, ctx_),
            Set({S("a.txt"), S("sub/c.txt"), S("sub/deep/d.txt")}));
  EXPECT_EQ(Call("fileset", {S("files"), S("{a,b}.*")}, ctx_), Set({S("a.txt"), S("b.md")}));
  EXPECT_EQ(Call("fileset", {S("files"), S("sub/*")}, ctx_), Set({S("sub/c.txt")}));
  EXPECT_EQ(Call("fileset", {S("files"), S("[ab].???")}, ctx_), Set({S("a.txt")}));
  EXPECT_EQ(Call("fileset", {S("files"), S("sub/**")}, ctx_),
            Set({S("sub/c.txt"), S("sub/deep/d.txt")}));
  EXPECT_EQ(Call("fileset", {S("files"), S("*.none")}, ctx_), Set({}));
  EXPECT_EQ(Call("fileset", {S("missing"), S("*")}, ctx_).kind(), ValueKind::Set);
}

TEST_F(FileFunctionsTest, DirnameAndBasenameFollowGo) {
  EXPECT_EQ(Call("dirname", {S("foo/bar/baz.txt")}), S("foo/bar"));
  EXPECT_EQ(Call("dirname", {S("foo")}), S("."));
  EXPECT_EQ(Call("dirname", {S("/foo")}), S("/"));
  EXPECT_EQ(Call("dirname", {S("")}), S("."));
  EXPECT_EQ(Call("basename", {S("foo/bar/baz.txt")}), S("baz.txt"));
  EXPECT_EQ(Call("basename", {S("foo/bar/")}), S("bar"));
  EXPECT_EQ(Call("basename", {S("/")}), S("/"));
  EXPECT_EQ(Call("basename", {S("")}), S("."));
}

TEST_F(FileFunctionsTest, AbspathResolvesAgainstBaseDir) {
  EXPECT_EQ(Call("abspath", {S("/a/b/../c")}), S("/a/c"));
  EXPECT_EQ(Call("abspath", {S("x/./y")}, ctx_), S((fs::absolute(dir_) / "x/y").generic_string()));
}

TEST_F(FileFunctionsTest, PathexpandReplacesTilde) {
  const char* home = std::getenv("HOME");
  ASSERT_NE(home, nullptr);
  EXPECT_EQ(Call("pathexpand", {S("~/.ssh/id_rsa")}), S(std::string(home) + "/.ssh/id_rsa"));
  EXPECT_EQ(Call("pathexpand", {S("/etc/resolv.conf")}), S("/etc/resolv.conf"));
  EXPECT_EQ(CallError("pathexpand", {S("~bob/x")}).arg_index, 0);
}

TEST_F(FileFunctionsTest, UnknownAndSensitiveArguments) {
  EXPECT_TRUE(Call("file", {Value::Unknown()}, ctx_).IsUnknown());
  EXPECT_TRUE(Call("file", {S("hello.txt").MarkSensitive()}, ctx_).IsSensitive());
}

}  // namespace
}  // namespace strata
