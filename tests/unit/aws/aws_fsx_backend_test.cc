// aws_fsx_lustre_file_system against the sandbox and moto, reached only through the
// provider's `endpoints` setting (FSx over awsJson 1.1; the subnet and security group
// through EC2).
//
// Where moto departs from AWS, the test says so and skips loudly; the provider is never
// told. moto 5.2's FSx has no Lifecycle in its FileSystem answers (AWS always says CREATING,
// AVAILABLE, UPDATING, DELETING), so a create that waits for AVAILABLE cannot end there; it
// has no UpdateFileSystem, does not echo the import and export paths, and answers an unknown
// id with an empty list instead of FileSystemNotFound.

#include "backend_provider_test.h"

namespace strata::aws {
namespace {

using namespace backendtest;
using attrs::With;

class AwsFsxTest : public BackendProviderTest {
 protected:
  AwsFsxTest() : BackendProviderTest("FSx", {"fsx", "ec2"}, "us-west-2") {}

  //! Skips the case on moto (the caller returns when IsSkipped()).
  void SkipOnMoto() {
    if (!IsMoto()) return;
    const char* why = "moto's FSx file systems have no Lifecycle (never AVAILABLE), no UpdateFileSystem and no import/export paths";
    std::cerr << "*** SKIPPING on moto (moto departs from AWS): " << why << "\n";
    GTEST_SKIP() << "moto departs from AWS: " << why;
  }

  void MakeNetwork() {
    vpc_ = MustCreate("aws_vpc", Obj({{"cidr_block", S("10.40.0.0/16")}}));
    subnet_ = MustCreate("aws_subnet", Obj({{"vpc_id", Attr(vpc_, "id")}, {"cidr_block", S("10.40.1.0/24")},
                                            {"availability_zone", S("us-west-2a")}}));
    group_ = MustCreate("aws_security_group", Obj({{"name", S("lustre-" + suffix_)}, {"vpc_id", Attr(vpc_, "id")}}));
  }

  Value vpc_, subnet_, group_;
  std::string suffix_ = UniqueSuffix();
};

TEST_P(AwsFsxTest, ScratchFileSystemCreateReadUpdateImportRecoverDelete) {
  SkipOnMoto();
  if (IsSkipped()) return;
  MakeNetwork();
  Value config = Obj({{"storage_capacity", N(1200)},
                      {"subnet_ids", L({Str(subnet_, "id")})},
                      {"security_group_ids", Value::Set({Attr(group_, "id")})},
                      {"deployment_type", S("SCRATCH_2")},
                      {"import_path", S("s3://training-data-" + suffix_)},
                      {"auto_import_policy", S("NEW")},
                      {"tags", Tags({{"Name", "scratch-" + suffix_}})}});
  ctx_.idempotency_token = "token-lustre-" + suffix_;
  std::vector<std::string> progress;
  ctx_.progress = [&](const std::string& line) { progress.push_back(line); };
  ApplyResult created = Create("aws_fsx_lustre_file_system", config);
  ctx_.progress = nullptr;
  ASSERT_FALSE(created.diags.HasErrors()) << Text(created.diags);
  const Value& state = created.state;
  std::string id = Str(state, "id");
  EXPECT_EQ(id.rfind("fs-", 0), 0u) << id;
  EXPECT_EQ(Str(state, "arn"), "arn:aws:fsx:us-west-2:" + Account() + ":file-system/" + id);
  EXPECT_EQ(Str(state, "dns_name"), id + ".fsx.us-west-2.amazonaws.com");
  EXPECT_EQ(Str(state, "vpc_id"), Str(vpc_, "id"));
  EXPECT_EQ(Str(state, "owner_id"), Account());
  EXPECT_FALSE(Str(state, "mount_name").empty());
  EXPECT_FALSE(Attr(state, "network_interface_ids").AsList().empty());
  EXPECT_EQ(Str(state, "export_path").rfind("s3://training-data-" + suffix_ + "/", 0), 0u) << Str(state, "export_path");
  EXPECT_EQ(Str(state, "data_compression_type"), "NONE");
  EXPECT_EQ(Attr(state, "tags_all"), Tags({{"Name", "scratch-" + suffix_}, {"Owner", "strata-tests"}}));
  EXPECT_FALSE(progress.empty()) << "a create that waits for AVAILABLE reports progress";
  ExpectNoChange("aws_fsx_lustre_file_system", state, config);

  // The same ClientRequestToken answers the same file system; a destroy finds it by tag.
  ApplyResult again = Create("aws_fsx_lustre_file_system", config);
  ASSERT_FALSE(again.diags.HasErrors()) << Text(again.diags);
  EXPECT_EQ(Str(again.state, "id"), id);
  ReadResult found = provider_.FindInterruptedCreate(ctx_, "aws_fsx_lustre_file_system",
                                                     PlanCreate("aws_fsx_lustre_file_system", config).planned);
  ASSERT_FALSE(found.diags.HasErrors()) << Text(found.diags);
  EXPECT_EQ(Str(found.state, "id"), id);
  // The token with other parameters: FSx's IncompatibleParameterError.
  ApplyResult other = Create("aws_fsx_lustre_file_system", With(config, "storage_capacity", N(2400)));
  ASSERT_TRUE(other.diags.HasErrors());
  EXPECT_NE(Text(other.diags).find("IncompatibleParameterError"), std::string::npos) << Text(other.diags);
  ctx_.idempotency_token = "token-never-used-" + suffix_;
  EXPECT_TRUE(provider_.FindInterruptedCreate(ctx_, "aws_fsx_lustre_file_system",
                                              PlanCreate("aws_fsx_lustre_file_system", config).planned).gone);
  ctx_.idempotency_token.clear();

  // In place: a storage increase (UPDATING on the way), compression, auto import, tags.
  Value changed = With(config, "storage_capacity", N(2400));
  changed = With(changed, "data_compression_type", S("LZ4"));
  changed = With(changed, "auto_import_policy", S("NEW_CHANGED"));
  changed = With(changed, "tags", Tags({{"Name", "bigger-" + suffix_}}));
  Value updated = UpdateInPlace("aws_fsx_lustre_file_system", state, changed);
  EXPECT_EQ(Attr(updated, "storage_capacity"), N(2400));
  EXPECT_EQ(Str(updated, "data_compression_type"), "LZ4");
  EXPECT_EQ(Str(updated, "auto_import_policy"), "NEW_CHANGED");
  ExpectNoChange("aws_fsx_lustre_file_system", updated, changed);
  PlanResult replace = PlanUpdate("aws_fsx_lustre_file_system", updated, With(changed, "deployment_type", S("SCRATCH_1")));
  EXPECT_FALSE(replace.requires_replace.empty()) << "deployment_type forces a new file system";

  ApplyResult imported = provider_.ImportResource(ctx_, "aws_fsx_lustre_file_system", id);
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(Str(imported.state, "import_path"), "s3://training-data-" + suffix_);

  MustDelete("aws_fsx_lustre_file_system", updated);
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_fsx_lustre_file_system", updated).gone);
  MustDelete("aws_fsx_lustre_file_system", updated);  // already gone: nothing to do
}

TEST_P(AwsFsxTest, PersistentThroughputChangesInPlace) {
  SkipOnMoto();
  if (IsSkipped()) return;
  MakeNetwork();
  Value config = Obj({{"storage_capacity", N(1200)},
                      {"subnet_ids", L({Str(subnet_, "id")})},
                      {"deployment_type", S("PERSISTENT_2")},
                      {"per_unit_storage_throughput", N(125)}});
  Value state = MustCreate("aws_fsx_lustre_file_system", config);
  EXPECT_EQ(Attr(state, "per_unit_storage_throughput"), N(125));
  EXPECT_TRUE(Attr(state, "import_path").IsNull());
  Value faster = UpdateInPlace("aws_fsx_lustre_file_system", state, With(config, "per_unit_storage_throughput", N(250)));
  EXPECT_EQ(Attr(faster, "per_unit_storage_throughput"), N(250));
  MustDelete("aws_fsx_lustre_file_system", faster);
}

TEST_P(AwsFsxTest, RefusalsNameTheProblem) {
  SkipOnMoto();
  if (IsSkipped()) return;
  MakeNetwork();
  // Caught at plan: 1800 GiB is no SCRATCH_2 size.
  Value bad = Obj({{"storage_capacity", N(1800)}, {"subnet_ids", L({Str(subnet_, "id")})}, {"deployment_type", S("SCRATCH_2")}});
  Diagnostics invalid = provider_.ValidateResourceConfig(ctx_, ResourceMode::Managed, "aws_fsx_lustre_file_system", bad);
  ASSERT_TRUE(invalid.HasErrors());
  EXPECT_NE(Text(invalid).find("multiple of 2400"), std::string::npos) << Text(invalid);
  // Refused by FSx when sent anyway.
  RawAnswer raw = RawJson("fsx", "AWSSimbaAPIService_v20180301.CreateFileSystem",
                          R"({"FileSystemType":"LUSTRE","StorageCapacity":1800,"SubnetIds":[")" + Str(subnet_, "id") +
                              R"("],"LustreConfiguration":{"DeploymentType":"SCRATCH_2"}})");
  EXPECT_EQ(raw.status, 400);
  EXPECT_EQ(raw.error, "BadRequest");
  // A subnet EC2 does not have.
  ApplyResult no_subnet = Create("aws_fsx_lustre_file_system", Obj({{"storage_capacity", N(1200)},
                                                                   {"subnet_ids", L({"subnet-0123456789abcdef0"})},
                                                                   {"deployment_type", S("SCRATCH_2")}}));
  ASSERT_TRUE(no_subnet.diags.HasErrors());
  EXPECT_NE(Text(no_subnet.diags).find("InvalidNetworkSettings"), std::string::npos) << Text(no_subnet.diags);
  // Reading a file system FSx does not have: gone.
  Value ghost = Obj({{"id", S("fs-0123456789abcdef0")}});
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_fsx_lustre_file_system", ghost).gone);
}

STRATA_AWS_BACKENDS(AwsFsxTest);

}  // namespace
}  // namespace strata::aws
