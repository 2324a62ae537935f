// aws_efs_file_system, aws_efs_mount_target and aws_efs_access_point against the sandbox
// and moto, reached only through the provider's `endpoints` setting (EFS over REST-JSON,
// signing name elasticfilesystem; the subnets and security groups through EC2).
//
// Where moto departs from AWS, the test says so and skips that part loudly; the provider is
// never told. moto 5.2: no UpdateFileSystem (throughput cannot change), every lifecycle is
// instant ("available" at once, gone at once), and a repeated access point ClientToken makes
// a second access point instead of AccessPointAlreadyExists.

#include "backend_provider_test.h"

namespace strata::aws {
namespace {

using namespace backendtest;
using attrs::With;

//! A lifecycle_policy block as the engine decodes it: the transitions not written are null.
Value Transition(const std::string& attr, const std::string& when) {
  ValueMap block = {{"transition_to_ia", Value()}, {"transition_to_primary_storage_class", Value()}, {"transition_to_archive", Value()}};
  block[attr] = S(when);
  return Obj(block);
}

class AwsEfsTest : public BackendProviderTest {
 protected:
  AwsEfsTest() : BackendProviderTest("EFS", {"efs", "ec2"}, "us-east-1") {}

  //! True on moto, saying loudly which check it skips and why.
  bool MotoLacks(const std::string& why) {
    if (!IsMoto()) return false;
    std::cerr << "*** SKIPPING a check on moto (moto departs from AWS): " << why << "\n";
    return true;
  }

  //! A VPC with two subnets in two zones and a security group.
  struct Network {
    Value vpc, group, other_vpc;
    std::vector<Value> subnets;
  };
  Network MakeNetwork() {
    Network n;
    n.vpc = MustCreate("aws_vpc", Obj({{"cidr_block", S("10.20.0.0/16")}}));
    for (int i = 0; i < 3; ++i) {
      n.subnets.push_back(MustCreate("aws_subnet", Obj({{"vpc_id", Attr(n.vpc, "id")},
                                                        {"cidr_block", S("10.20." + std::to_string(i) + ".0/24")},
                                                        {"availability_zone", S(i == 1 ? "us-east-1b" : "us-east-1a")}})));
    }
    n.group = MustCreate("aws_security_group", Obj({{"name", S("efs-" + suffix_)}, {"vpc_id", Attr(n.vpc, "id")}}));
    return n;
  }

  std::string suffix_ = UniqueSuffix();
};

TEST_P(AwsEfsTest, FileSystemCreateReadUpdateImportRecoverDelete) {
  Value config = Obj({{"encrypted", Value::Bool(true)},
                      {"lifecycle_policy", Value::List({Transition("transition_to_ia", "AFTER_30_DAYS")})},
                      {"tags", Tags({{"Name", "shared-" + suffix_}})}});
  ctx_.idempotency_token = "token-efs-" + suffix_;
  ApplyResult created = Create("aws_efs_file_system", config);
  ASSERT_FALSE(created.diags.HasErrors()) << Text(created.diags);
  const Value& state = created.state;
  std::string id = Str(state, "id");
  EXPECT_EQ(id.rfind("fs-", 0), 0u) << id;
  EXPECT_EQ(Str(state, "dns_name"), id + ".efs.us-east-1.amazonaws.com");
  EXPECT_EQ(Str(state, "arn"), "arn:aws:elasticfilesystem:us-east-1:" + Account() + ":file-system/" + id);
  EXPECT_EQ(Str(state, "creation_token").rfind("terraform-", 0), 0u) << Str(state, "creation_token");
  EXPECT_EQ(Str(state, "performance_mode"), "generalPurpose");
  EXPECT_EQ(Str(state, "throughput_mode"), "bursting");
  EXPECT_EQ(Str(state, "name"), "shared-" + suffix_);
  EXPECT_EQ(Attr(state, "encrypted"), Value::Bool(true));
  EXPECT_EQ(Attr(state, "number_of_mount_targets"), N(0));
  EXPECT_EQ(Attr(state, "tags_all"), Tags({{"Name", "shared-" + suffix_}, {"Owner", "strata-tests"}}));
  ExpectNoChange("aws_efs_file_system", state, config);

  // The CreationToken comes from the engine's token: a recovery finds the file system, and
  // a create sent again adopts it instead of making a second one.
  ReadResult found = provider_.FindInterruptedCreate(ctx_, "aws_efs_file_system", PlanCreate("aws_efs_file_system", config).planned);
  ASSERT_FALSE(found.diags.HasErrors()) << Text(found.diags);
  EXPECT_EQ(Str(found.state, "id"), id);
  ApplyResult again = Create("aws_efs_file_system", config);
  ASSERT_FALSE(again.diags.HasErrors()) << Text(again.diags);
  EXPECT_EQ(Str(again.state, "id"), id);
  ctx_.idempotency_token = "token-never-used-" + suffix_;
  EXPECT_TRUE(provider_.FindInterruptedCreate(ctx_, "aws_efs_file_system", PlanCreate("aws_efs_file_system", config).planned).gone);
  ctx_.idempotency_token.clear();

  Value changed = With(config, "lifecycle_policy", Value::List({Transition("transition_to_ia", "AFTER_7_DAYS"),
                                                                Transition("transition_to_primary_storage_class", "AFTER_1_ACCESS")}));
  changed = With(changed, "tags", Tags({{"Name", "renamed-" + suffix_}, {"team", "ml"}}));
  Value updated = UpdateInPlace("aws_efs_file_system", state, changed);
  EXPECT_EQ(Str(updated, "name"), "renamed-" + suffix_);
  ASSERT_EQ(Attr(updated, "lifecycle_policy").AsList().size(), 2u);
  EXPECT_EQ(Str(Attr(updated, "lifecycle_policy").AsList()[1], "transition_to_primary_storage_class"), "AFTER_1_ACCESS");
  ExpectNoChange("aws_efs_file_system", updated, changed);

  PlanResult replace = PlanUpdate("aws_efs_file_system", updated, With(changed, "performance_mode", S("maxIO")));
  EXPECT_FALSE(replace.requires_replace.empty()) << "performance_mode forces a new file system";

  ApplyResult imported = provider_.ImportResource(ctx_, "aws_efs_file_system", id);
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(Str(imported.state, "creation_token"), Str(state, "creation_token"));

  if (!MotoLacks("UpdateFileSystem: throughput cannot change")) {
    Value provisioned = With(changed, "throughput_mode", S("provisioned"));
    provisioned = With(provisioned, "provisioned_throughput_in_mibps", N(64));
    Value faster = UpdateInPlace("aws_efs_file_system", updated, provisioned);
    EXPECT_EQ(Str(faster, "throughput_mode"), "provisioned");
    EXPECT_EQ(Attr(faster, "provisioned_throughput_in_mibps"), N(64));
    updated = faster;
  }

  MustDelete("aws_efs_file_system", updated);
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_efs_file_system", updated).gone);
  MustDelete("aws_efs_file_system", updated);  // already gone: nothing to do
}

TEST_P(AwsEfsTest, CreationTokenOfSomeoneElseIsNotTakenOver) {
  Value config = Obj({{"creation_token", S("shared-token-" + suffix_)}});
  Value first = MustCreate("aws_efs_file_system", config);
  ApplyResult second = Create("aws_efs_file_system", config);
  ASSERT_TRUE(second.diags.HasErrors());
  EXPECT_NE(Text(second.diags).find("strata import"), std::string::npos) << Text(second.diags);
  EXPECT_NE(Text(second.diags).find(Str(first, "id")), std::string::npos) << Text(second.diags);
  MustDelete("aws_efs_file_system", first);
}

TEST_P(AwsEfsTest, MountTargetsAndAccessPoints) {
  Network net = MakeNetwork();
  Value fs = MustCreate("aws_efs_file_system", Obj({{"tags", Tags({{"Name", "mt-" + suffix_}})}}));
  std::string fs_id = Str(fs, "id");

  Value mt_config = Obj({{"file_system_id", S(fs_id)},
                         {"subnet_id", Attr(net.subnets[0], "id")},
                         {"security_groups", Value::Set({Attr(net.group, "id")})}});
  ApplyResult mt = Create("aws_efs_mount_target", mt_config);
  ASSERT_FALSE(mt.diags.HasErrors()) << Text(mt.diags);
  EXPECT_EQ(Str(mt.state, "id").rfind("fsmt-", 0), 0u) << Str(mt.state, "id");
  EXPECT_EQ(Str(mt.state, "availability_zone_name"), "us-east-1a");
  EXPECT_EQ(Str(mt.state, "dns_name"), fs_id + ".efs.us-east-1.amazonaws.com");
  EXPECT_EQ(Str(mt.state, "ip_address").rfind("10.20.0.", 0), 0u) << Str(mt.state, "ip_address");
  EXPECT_FALSE(Str(mt.state, "network_interface_id").empty());
  ExpectNoChange("aws_efs_mount_target", mt.state, mt_config);

  // The natural key: the mount target of the file system in the subnet.
  ReadResult found = provider_.FindInterruptedCreate(ctx_, "aws_efs_mount_target", PlanCreate("aws_efs_mount_target", mt_config).planned);
  ASSERT_FALSE(found.diags.HasErrors()) << Text(found.diags);
  EXPECT_EQ(Str(found.state, "id"), Str(mt.state, "id"));

  // One mount target per zone: subnets[2] is in us-east-1a too.
  ApplyResult same_zone = Create("aws_efs_mount_target", With(mt_config, "subnet_id", Attr(net.subnets[2], "id")));
  ASSERT_TRUE(same_zone.diags.HasErrors());
  EXPECT_NE(Text(same_zone.diags).find("MountTargetConflict"), std::string::npos) << Text(same_zone.diags);

  // A file system with mount targets cannot be deleted.
  DeleteResult in_use = provider_.DeleteResource(ctx_, "aws_efs_file_system", fs);
  ASSERT_TRUE(in_use.diags.HasErrors());
  EXPECT_NE(Text(in_use.diags).find("FileSystemInUse"), std::string::npos) << Text(in_use.diags);

  // Security groups change in place.
  Value other_group = MustCreate("aws_security_group", Obj({{"name", S("efs-other-" + suffix_)}, {"vpc_id", Attr(net.vpc, "id")}}));
  Value regrouped = UpdateInPlace("aws_efs_mount_target", mt.state,
                                  With(mt_config, "security_groups", Value::Set({Attr(other_group, "id")})));
  EXPECT_EQ(Attr(regrouped, "security_groups"), Value::Set({Attr(other_group, "id")}));
  ApplyResult imported = provider_.ImportResource(ctx_, "aws_efs_mount_target", Str(mt.state, "id"));
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(Str(imported.state, "subnet_id"), Str(net.subnets[0], "id"));

  Value ap_config = Obj({{"file_system_id", S(fs_id)},
                         {"posix_user", Value::List({Obj({{"uid", N(1000)}, {"gid", N(1000)}, {"secondary_gids", Value()}})})},
                         {"root_directory", Value::List({Obj({{"path", S("/data")},
                                                              {"creation_info", Value::List({Obj({{"owner_uid", N(1000)},
                                                                                                  {"owner_gid", N(1000)},
                                                                                                  {"permissions", S("755")}})})}})})},
                         {"tags", Tags({{"app", "ml"}})}});
  ctx_.idempotency_token = "token-ap-" + suffix_;
  ApplyResult ap = Create("aws_efs_access_point", ap_config);
  ASSERT_FALSE(ap.diags.HasErrors()) << Text(ap.diags);
  std::string ap_id = Str(ap.state, "id");
  EXPECT_EQ(ap_id.rfind("fsap-", 0), 0u) << ap_id;
  EXPECT_EQ(Str(ap.state, "arn"), "arn:aws:elasticfilesystem:us-east-1:" + Account() + ":access-point/" + ap_id);
  EXPECT_EQ(Str(ap.state, "file_system_arn"), Str(fs, "arn"));
  ExpectNoChange("aws_efs_access_point", ap.state, ap_config);
  ReadResult ap_found = provider_.FindInterruptedCreate(ctx_, "aws_efs_access_point", PlanCreate("aws_efs_access_point", ap_config).planned);
  ASSERT_FALSE(ap_found.diags.HasErrors()) << Text(ap_found.diags);
  EXPECT_EQ(Str(ap_found.state, "id"), ap_id);
  if (!MotoLacks("AccessPointAlreadyExists: a repeated ClientToken makes a second access point")) {
    ApplyResult retried = Create("aws_efs_access_point", ap_config);
    ASSERT_FALSE(retried.diags.HasErrors()) << Text(retried.diags);
    EXPECT_EQ(Str(retried.state, "id"), ap_id);
  }
  ctx_.idempotency_token.clear();
  Value retagged = UpdateInPlace("aws_efs_access_point", ap.state, With(ap_config, "tags", Tags({{"app", "web"}})));
  EXPECT_EQ(Attr(retagged, "tags"), Tags({{"app", "web"}}));
  ExpectReadsBack("aws_efs_access_point", retagged);
  MustDelete("aws_efs_access_point", retagged);
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_efs_access_point", retagged).gone);

  MustDelete("aws_efs_mount_target", regrouped);
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_efs_mount_target", regrouped).gone);
  MustDelete("aws_efs_file_system", fs);
  EXPECT_TRUE(provider_.ReadResource(ctx_, "aws_efs_file_system", fs).gone);
}

TEST_P(AwsEfsTest, MountTargetInAnotherVpcIsRefused) {
  Network net = MakeNetwork();
  Value other_vpc = MustCreate("aws_vpc", Obj({{"cidr_block", S("10.30.0.0/16")}}));
  Value far_subnet = MustCreate("aws_subnet", Obj({{"vpc_id", Attr(other_vpc, "id")},
                                                   {"cidr_block", S("10.30.1.0/24")},
                                                   {"availability_zone", S("us-east-1b")}}));
  Value fs = MustCreate("aws_efs_file_system", Obj({}));
  Value mt = MustCreate("aws_efs_mount_target", Obj({{"file_system_id", Attr(fs, "id")}, {"subnet_id", Attr(net.subnets[0], "id")}}));
  ApplyResult elsewhere = Create("aws_efs_mount_target", Obj({{"file_system_id", Attr(fs, "id")}, {"subnet_id", Attr(far_subnet, "id")}}));
  ASSERT_TRUE(elsewhere.diags.HasErrors());
  EXPECT_NE(Text(elsewhere.diags).find("MountTargetConflict"), std::string::npos) << Text(elsewhere.diags);
  ApplyResult no_subnet = Create("aws_efs_mount_target", Obj({{"file_system_id", Attr(fs, "id")}, {"subnet_id", S("subnet-0123456789abcdef0")}}));
  ASSERT_TRUE(no_subnet.diags.HasErrors());
  EXPECT_NE(Text(no_subnet.diags).find("SubnetNotFound"), std::string::npos) << Text(no_subnet.diags);
  MustDelete("aws_efs_mount_target", mt);
  MustDelete("aws_efs_file_system", fs);
}

STRATA_AWS_BACKENDS(AwsEfsTest);

}  // namespace
}  // namespace strata::aws
