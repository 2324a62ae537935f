#include <sys/stat.h>

#include "engine/base/hash.h"
#include "tests/unit/providers/provider_test_support.h"

namespace strata::testing {
namespace {

class LocalFileTest : public ProviderTest {};

unsigned ModeOf(const std::string& path) {
  struct stat st {};
  ::stat(path.c_str(), &st);
  return st.st_mode & 07777;
}

// The process umask for one test (the tests of a binary run one at a time).
class UmaskScope {
 public:
  explicit UmaskScope(mode_t mask) : old_(::umask(mask)) {}
  ~UmaskScope() { ::umask(old_); }

 private:
  mode_t old_;
};

TEST_F(LocalFileTest, CreateWritesContentPermissionAndChecksums) {
  UmaskScope umask(022);
  std::string file = Path("sub/dir/hello.txt");
  Value config = Obj({{"filename", S(file)}, {"content", S("hello")},
                      {"file_permission", S("0640")}});
  PlanResult plan = Plan("local_file", Value(), config);
  EXPECT_TRUE(At(plan.planned, "content_sha256").IsUnknown());
  EXPECT_EQ(At(plan.planned, "directory_permission").AsString(), "0777");
  Value state = Create("local_file", config);
  EXPECT_EQ(ReadText(file), "hello");
  EXPECT_EQ(ModeOf(file), 0640u);
  EXPECT_EQ(At(state, "content_md5").AsString(), "5d41402abc4b2a76b9719d911017c592");
  EXPECT_EQ(At(state, "content_sha256").AsString(),
            "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");
  EXPECT_EQ(At(state, "id").AsString(), "aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d");  // sha1
}

TEST_F(LocalFileTest, DefaultPermissionsAre0777LessTheUmask) {
  // As Terraform's os.WriteFile / os.MkdirAll: the umask applies, and reading back the
  // masked mode is no drift.
  UmaskScope umask(022);
  std::string file = Path("new/dir/a.txt");
  Value config = Obj({{"filename", S(file)}, {"content", S("x")}});
  Value state = Create("local_file", config);
  EXPECT_EQ(At(state, "file_permission").AsString(), "0777");
  EXPECT_EQ(At(state, "directory_permission").AsString(), "0777");
  EXPECT_EQ(ModeOf(file), 0755u);
  EXPECT_EQ(ModeOf(Path("new/dir")), 0755u);
  EXPECT_EQ(ModeOf(Path("new")), 0755u);
  ReadResult read = provider_->ReadResource(ctx_, "local_file", state);
  EXPECT_FALSE(read.gone);
  EXPECT_TRUE(read.state.Equals(state));
  PlanResult again = Plan("local_file", read.state, config);
  EXPECT_TRUE(again.requires_replace.empty());

  UmaskScope none(0);
  std::string open = Path("open/b.txt");
  Create("local_file", Obj({{"filename", S(open)}, {"content", S("x")}}));
  EXPECT_EQ(ModeOf(open), 0777u);
  EXPECT_EQ(ModeOf(Path("open")), 0777u);
}

TEST_F(LocalFileTest, GivenPermissionsAreMaskedByTheUmaskWithoutDrift) {
  UmaskScope umask(027);
  std::string file = Path("d/e.txt");
  Value config = Obj({{"filename", S(file)}, {"content", S("x")}, {"file_permission", S("0666")},
                      {"directory_permission", S("755")}});
  Value state = Create("local_file", config);
  EXPECT_EQ(ModeOf(file), 0640u);
  EXPECT_EQ(ModeOf(Path("d")), 0750u);
  ReadResult read = provider_->ReadResource(ctx_, "local_file", state);
  EXPECT_TRUE(read.state.Equals(state));
  EXPECT_TRUE(Plan("local_file", read.state, config).requires_replace.empty());
}

TEST_F(LocalFileTest, SensitiveFileDefaultsTo0700) {
  UmaskScope umask(0);
  std::string file = Path("secrets/key.pem");
  Value config = Obj({{"filename", S(file)}, {"content", S("k")}});
  PlanResult plan = Plan("local_sensitive_file", Value(), config);
  EXPECT_EQ(At(plan.planned, "file_permission").AsString(), "0700");
  EXPECT_EQ(At(plan.planned, "directory_permission").AsString(), "0700");
  Create("local_sensitive_file", config);
  EXPECT_EQ(ModeOf(file), 0700u);
  EXPECT_EQ(ModeOf(Path("secrets")), 0700u);
}

TEST_F(LocalFileTest, ChangingAPermissionReplaces) {
  Value config = Obj({{"filename", S(Path("p.txt"))}, {"content", S("x")}});
  Value state = Create("local_file", config);
  for (const char* attr : {"file_permission", "directory_permission"}) {
    PlanResult plan = Plan("local_file", state, attrs::With(config, attr, S("0600")));
    EXPECT_TRUE(Replaces(plan, attr)) << attr;
  }
}

TEST_F(LocalFileTest, InvalidPermissionNamesTheAttribute) {
  for (const char* attr : {"file_permission", "directory_permission"}) {
    for (const char* bad : {"999", "64", "06444", "1777", "rwx", "0x1F"}) {
      PlanResult plan = Plan("local_file", Value(), Obj({{"filename", S(Path("v.txt"))}, {"content", S("a")},
                                                          {attr, S(bad)}}));
      ASSERT_TRUE(plan.diags.HasErrors()) << attr << " = " << bad;
      EXPECT_EQ(plan.diags.items()[0].summary, std::string("Invalid ") + attr);
      EXPECT_NE(plan.diags.items()[0].detail.find(std::string(attr) + " = \"" + bad + "\""), std::string::npos)
          << plan.diags.items()[0].detail;
    }
  }
}

TEST_F(LocalFileTest, AFileAlreadyThereLosesBitsNotGranted) {
  UmaskScope umask(0);
  std::string file = Path("there.txt");
  std::ofstream(file) << "old";
  ::chmod(file.c_str(), 0666);
  Create("local_file", Obj({{"filename", S(file)}, {"content", S("new")}, {"file_permission", S("0640")}}));
  EXPECT_EQ(ReadText(file), "new");
  EXPECT_EQ(ModeOf(file), 0640u);
}

TEST_F(LocalFileTest, EditOutsideIsDriftThatReplaces) {
  std::string file = Path("drift.txt");
  Value config = Obj({{"filename", S(file)}, {"content", S("original")}});
  Value state = Create("local_file", config);
  ReadResult unchanged = provider_->ReadResource(ctx_, "local_file", state);
  EXPECT_FALSE(unchanged.gone);
  EXPECT_TRUE(unchanged.state.Equals(state));

  std::ofstream(file) << "edited";
  ReadResult read = provider_->ReadResource(ctx_, "local_file", state);
  ASSERT_FALSE(read.gone);
  EXPECT_EQ(At(read.state, "content").AsString(), "edited");
  PlanResult plan = Plan("local_file", read.state, config);
  EXPECT_TRUE(Replaces(plan, "content"));
  EXPECT_TRUE(At(plan.planned, "content_sha256").IsUnknown());
}

TEST_F(LocalFileTest, WideningOutsideIsDriftNarrowingIsNot) {
  std::string file = Path("mode.txt");
  Value config = Obj({{"filename", S(file)}, {"content", S("x")}, {"file_permission", S("0640")}});
  Value state = Create("local_file", config);
  ::chmod(file.c_str(), 0644);  // a bit 0640 does not grant: someone widened it
  ReadResult read = provider_->ReadResource(ctx_, "local_file", state);
  EXPECT_EQ(At(read.state, "file_permission").AsString(), "0644");
  EXPECT_TRUE(Replaces(Plan("local_file", read.state, config), "file_permission"));

  ::chmod(file.c_str(), 0600);  // fewer bits: what a umask does too
  read = provider_->ReadResource(ctx_, "local_file", state);
  EXPECT_TRUE(read.state.Equals(state));
}

TEST_F(LocalFileTest, DeleteOutsideIsGone) {
  std::string file = Path("gone.txt");
  Value state = Create("local_file", Obj({{"filename", S(file)}, {"content", S("x")}}));
  std::filesystem::remove(file);
  ReadResult read = provider_->ReadResource(ctx_, "local_file", state);
  EXPECT_TRUE(read.gone);
  EXPECT_FALSE(read.diags.HasErrors());
}

TEST_F(LocalFileTest, DeleteRemovesTheFileAndToleratesMissing) {
  std::string file = Path("del.txt");
  Value state = Create("local_file", Obj({{"filename", S(file)}, {"content", S("x")}}));
  EXPECT_FALSE(provider_->DeleteResource(ctx_, "local_file", state).diags.HasErrors());
  EXPECT_FALSE(std::filesystem::exists(file));
  EXPECT_FALSE(provider_->DeleteResource(ctx_, "local_file", state).diags.HasErrors());
}

TEST_F(LocalFileTest, ContentBase64AndExactlyOneContent) {
  std::string file = Path("b64.bin");
  Value state = Create("local_file", Obj({{"filename", S(file)}, {"content_base64", S("aGk=")}}));
  EXPECT_EQ(ReadText(file), "hi");
  PlanResult both = Plan("local_file", Value(),
                         Obj({{"filename", S(file)}, {"content", S("a")}, {"source", S(file)}}));
  EXPECT_TRUE(both.diags.HasErrors());
  PlanResult bad_mode = Plan("local_file", Value(), Obj({{"filename", S(file)}, {"content", S("a")},
                                                         {"file_permission", S("999")}}));
  EXPECT_TRUE(bad_mode.diags.HasErrors());
}

TEST_F(LocalFileTest, SensitiveFileMarksContent) {
  std::string file = Path("secret.txt");
  Value state = Create("local_sensitive_file", Obj({{"filename", S(file)}, {"content", S("pw")}}));
  EXPECT_TRUE(At(state, "content").IsSensitive());
  EXPECT_EQ(ReadText(file), "pw");
}

// A destroy after an interrupted create looks for the file by its path: ours when it holds
// the planned content, otherwise not ours (left alone); a state-only type made nothing, and
// `exec` cannot tell without running its command again.
TEST_F(LocalFileTest, DestroyAfterAnInterruptedCreateFindsTheFileByPathAndContent) {
  std::string file = Path("found.txt");
  Value config = Obj({{"filename", S(file)}, {"content", S("planned")}});
  PlanResult plan = Plan("local_file", Value(), config);
  ReadResult nothing = provider_->FindInterruptedCreate(ctx_, "local_file", plan.planned);
  EXPECT_TRUE(nothing.gone) << "no file: the create never wrote it";
  Create("local_file", config);
  ReadResult found = provider_->FindInterruptedCreate(ctx_, "local_file", plan.planned);
  ASSERT_FALSE(found.gone);
  EXPECT_EQ(At(found.state, "filename").AsString(), file);
  EXPECT_EQ(At(found.state, "content_sha256").AsString(), base::Sha256Hex("planned"));
  PlanResult other = Plan("local_file", Value(), Obj({{"filename", S(file)}, {"content", S("another")}}));
  EXPECT_TRUE(provider_->FindInterruptedCreate(ctx_, "local_file", other.planned).gone)
      << "a file with other content is not this create's";

  EXPECT_TRUE(provider_->FindInterruptedCreate(ctx_, "random_id", Obj({{"byte_length", Value::Number(8)}})).gone);
  ReadResult exec = provider_->FindInterruptedCreate(ctx_, "exec", Obj({{"command", Value::List({S("true")})}}));
  EXPECT_FALSE(exec.gone);
  EXPECT_TRUE(exec.state.IsNull()) << "exec cannot tell";
}

TEST_F(LocalFileTest, DataSourceReadsFile) {
  std::string file = Path("data.txt");
  std::ofstream(file) << "hello";
  ReadResult read = provider_->ReadDataSource(ctx_, "local_file", Obj({{"filename", S(file)}}));
  ASSERT_FALSE(read.diags.HasErrors());
  EXPECT_EQ(At(read.state, "content").AsString(), "hello");
  EXPECT_EQ(At(read.state, "content_base64").AsString(), "aGVsbG8=");
  ReadResult missing =
      provider_->ReadDataSource(ctx_, "local_file", Obj({{"filename", S(Path("none"))}}));
  EXPECT_TRUE(missing.diags.HasErrors());
}

}  // namespace
}  // namespace strata::testing
