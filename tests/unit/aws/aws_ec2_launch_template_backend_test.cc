// aws_launch_template against the sandbox and moto, through the provider interface only:
// create with an encrypted 100 GB gp3 root volume, user data, security groups, an instance
// profile, metadata options and tag specifications; read back unchanged; an update in place makes a new
// version (the earlier ones kept) and moves the default version with it; tags change in
// place; import by id; delete, read gone, delete again; a create interrupted by a crash is
// found again by its ClientToken (and, by a destroy, by its token tag); what EC2 refuses.
// Assertions are what AWS does; where moto departs from AWS the case says so and skips that
// assertion loudly, the provider is never told:
//  - moto copies the template's own TagSpecification (resource type launch-template, the
//    create-token tag with it) into the data's TagSpecifications, so tag_specifications reads
//    back with an entry AWS never shows: it is not compared on moto, and since the config
//    then differs from what moto reads, every update there makes a new version (the version
//    numbers after a tags-only or default-only update are not checked on moto);
//  - moto's DescribeLaunchTemplates answers the tags a template had when it was made
//    (CreateTags and DeleteTags change the tag store, not that answer): tag updates are not
//    read back on moto;
//  - moto ignores CreateLaunchTemplate's ClientToken (a re-sent create is refused with
//    InvalidLaunchTemplateName.AlreadyExistsException): the resumed create is skipped there;
//  - moto checks no launch template name, version number or user data: those refusals are
//    checked on the sandbox only.

#include "engine/base/base64.h"
#include "recovery_test_support.h"

namespace strata::aws {
namespace {

using namespace backendtest;
using attrs::With;

constexpr const char* kType = "aws_launch_template";

void SkipLoudly(const std::string& what) {
  std::cerr << "\n**********************************************************************\n"
            << "*** SKIPPING on moto: " << what << "\n"
            << "**********************************************************************\n";
}

//! One block_device_mappings entry with every attribute written: an EBS volume of `size` GiB.
Value RootVolume(double size, const std::string& type, const std::string& encrypted) {
  Value ebs = Obj({{"delete_on_termination", S("true")},
                   {"encrypted", S(encrypted)},
                   {"iops", type == "gp3" ? N(3000) : Value()},
                   {"kms_key_id", Value()},
                   {"snapshot_id", Value()},
                   {"throughput", type == "gp3" ? N(125) : Value()},
                   {"volume_size", N(size)},
                   {"volume_type", S(type)}});
  return Obj({{"device_name", S("/dev/xvda")}, {"no_device", Value()}, {"virtual_name", Value()},
              {"ebs", Value::List({ebs})}});
}

class AwsEc2LaunchTemplateTest : public RecoveryTest {
 protected:
  AwsEc2LaunchTemplateTest() : RecoveryTest("EC2 launch template", {"ec2", "sts"}, "us-east-1") {}

  static std::string UserData() { return base::Base64Encode("#!/bin/bash\necho hello > /tmp/hello\n"); }

  //! A template as the reference deployment's GPU group has it. `name` empty: no name (a
  //! name_prefix is then expected in `extra`).
  Value Config(const std::string& name, const std::string& security_group, double size = 100) {
    Value config = Obj({{"description", S("GPU nodes")},
                        {"image_id", S("ami-0123456789abcdef0")},
                        {"instance_type", S("g5.xlarge")},
                        {"key_name", Value()},
                        {"user_data", S(UserData())},
                        {"vpc_security_group_ids", Value::Set({S(security_group)})},
                        // EC2 checks the profile at launch, not in the template.
                        {"iam_instance_profile", Value::List({Obj({{"arn", Value()}, {"name", S("gpu-nodes")}})})},
                        {"block_device_mappings", Value::List({RootVolume(size, "gp3", "true")})},
                        {"metadata_options", Value::List({Obj({{"http_endpoint", S("enabled")},
                                                               {"http_tokens", S("required")},
                                                               {"http_put_response_hop_limit", N(2)}})})},
                        {"tag_specifications", Value::List({Obj({{"resource_type", S("instance")},
                                                                 {"tags", Tags({{"Name", "gpu-node"}})}})})},
                        {"update_default_version", Value::Bool(true)},
                        {"tags", Tags({{"Name", name.empty() ? "unnamed" : name}})}});
    return name.empty() ? config : With(config, "name", S(name));
  }

  Value Vpc(const std::string& cidr) { return MustCreate("aws_vpc", Obj({{"cidr_block", S(cidr)}})); }
  Value Group(const Value& vpc, const std::string& name) {
    return MustCreate("aws_security_group", Obj({{"name", S(name)}, {"vpc_id", Attr(vpc, "id")}}));
  }

  //! `v` as compared: on moto without tag_specifications (see the top).
  Value Comparable(const Value& v) const { return IsMoto() ? With(v, "tag_specifications", Value()) : v; }

  //! Reads `state` back and expects it unchanged (on moto: Comparable).
  void ExpectTemplateReadsBack(const Value& state) {
    if (!IsMoto()) return ExpectReadsBack(kType, state);
    ReadResult read = provider_.ReadResource(ctx_, kType, state);
    ASSERT_FALSE(read.diags.HasErrors()) << Text(read.diags);
    EXPECT_FALSE(read.gone);
    EXPECT_EQ(Comparable(read.state), Comparable(state));
  }

  //! The version `version` of template `id` as DescribeLaunchTemplateVersions answers it.
  std::string RawVersion(const std::string& id, const std::string& version) const {
    return RawEc2("Action=DescribeLaunchTemplateVersions" + Param("LaunchTemplateId", id) +
                  Param("LaunchTemplateVersion.1", version));
  }
};

TEST_P(AwsEc2LaunchTemplateTest, CreateReadNewVersionTagsImportDelete) {
  Value vpc = Vpc("10.120.0.0/16");
  Value sg = Group(vpc, "lt-nodes");
  Value config = Config("gpu-nodes", Str(sg, "id"));
  if (IsMoto()) {
    SkipLoudly("tag_specifications and the version numbers of tags-only updates: moto adds the template's own "
               "tag specification to its data");
  }
  Value state = MustCreate(kType, config);
  std::string id = Str(state, "id");
  EXPECT_EQ(id.rfind("lt-", 0), 0u) << id;
  EXPECT_EQ(Str(state, "name"), "gpu-nodes");
  EXPECT_EQ(Str(state, "arn"), "arn:aws:ec2:us-east-1:" + Account() + ":launch-template/" + id);
  EXPECT_EQ(Attr(state, "latest_version"), N(1));
  EXPECT_EQ(Attr(state, "default_version"), N(1));
  EXPECT_EQ(Str(state, "user_data"), UserData());
  EXPECT_EQ(Attr(state, "block_device_mappings"), Attr(config, "block_device_mappings"));
  EXPECT_EQ(Attr(state, "metadata_options"), Attr(config, "metadata_options"));
  EXPECT_EQ(Attr(state, "vpc_security_group_ids"), Value::Set({Attr(sg, "id")}));
  EXPECT_EQ(Attr(state, "tags_all"), Tags({{"Name", "gpu-nodes"}, {"Owner", "strata-tests"}}));
  if (!IsMoto()) {
    EXPECT_EQ(Attr(state, "tag_specifications"), Attr(config, "tag_specifications"));
  }
  ExpectNoTokenTag(state);
  ExpectTemplateReadsBack(state);
  // What EC2 answers, behind the provider's back: the volume as the template keeps it.
  std::string v1 = RawVersion(id, "$Latest");
  EXPECT_EQ(XmlValue(v1, "volumeSize"), "100");
  EXPECT_EQ(XmlValue(v1, "volumeType"), "gp3");
  EXPECT_EQ(XmlValue(v1, "encrypted"), "true");
  EXPECT_EQ(Attr(state, "iam_instance_profile"), Attr(config, "iam_instance_profile"));

  // A plan with nothing changed is no change at all (on moto the phantom tag specification
  // makes it a new version).
  PlanResult same = PlanUpdate(kType, state, config);
  EXPECT_TRUE(same.requires_replace.empty());
  if (!IsMoto()) {
    EXPECT_EQ(same.planned, state) << "planned: " << FormatValue(same.planned);
  }

  // A bigger volume and another instance type: a new version, made the default.
  Value bigger = With(Config("gpu-nodes", Str(sg, "id"), 200), "instance_type", S("g5.2xlarge"));
  PlanResult plan = PlanUpdate(kType, state, bigger);
  EXPECT_TRUE(Attr(plan.planned, "latest_version").IsUnknown());
  EXPECT_TRUE(Attr(plan.planned, "default_version").IsUnknown());
  Value v2 = UpdateInPlace(kType, state, bigger);
  EXPECT_EQ(Str(v2, "id"), id);
  EXPECT_EQ(Attr(v2, "latest_version"), N(2));
  EXPECT_EQ(Attr(v2, "default_version"), N(2));
  EXPECT_EQ(Str(v2, "instance_type"), "g5.2xlarge");
  EXPECT_EQ(Attr(v2, "block_device_mappings"), Attr(bigger, "block_device_mappings"));
  ExpectTemplateReadsBack(v2);
  EXPECT_EQ(XmlValue(RawVersion(id, "1"), "instanceType"), "g5.xlarge") << "version 1 was not kept";
  EXPECT_EQ(XmlValue(RawVersion(id, "$Default"), "volumeSize"), "200");

  // Without update_default_version a new version leaves the default where it was; written,
  // default_version moves it.
  Value described = With(With(bigger, "description", S("GPU nodes, v3")), "update_default_version", Value::Bool(false));
  Value v3 = UpdateInPlace(kType, v2, described);
  EXPECT_EQ(Attr(v3, "latest_version"), N(3));
  EXPECT_EQ(Attr(v3, "default_version"), N(2));
  EXPECT_EQ(Str(v3, "description"), "GPU nodes, v3");
  Value pinned = UpdateInPlace(kType, v3, With(described, "default_version", N(3)));
  if (!IsMoto()) {
    EXPECT_EQ(Attr(pinned, "latest_version"), N(3));
  }
  EXPECT_EQ(Attr(pinned, "default_version"), N(3));

  // Tags change in place, on the template (not in a new version).
  Value retagged = UpdateInPlace(kType, pinned, With(With(described, "default_version", N(3)), "tags",
                                                     Tags({{"Name", "gpu-nodes"}, {"Team", "ml"}})));
  if (!IsMoto()) {
    EXPECT_EQ(Attr(retagged, "latest_version"), N(3));
  }
  if (IsMoto()) {
    SkipLoudly("tags after CreateTags: moto's DescribeLaunchTemplates answers the tags of the create");
  } else {
    EXPECT_EQ(Attr(retagged, "tags_all"), Tags({{"Name", "gpu-nodes"}, {"Team", "ml"}, {"Owner", "strata-tests"}}));
    ExpectNoTokenTag(retagged);
    ExpectTemplateReadsBack(retagged);
  }

  // Import by id: everything but update_default_version, which is the config's alone.
  ApplyResult imported = provider_.ImportResource(ctx_, kType, id);
  ASSERT_FALSE(imported.diags.HasErrors()) << Text(imported.diags);
  EXPECT_EQ(Comparable(With(imported.state, "update_default_version", Value())),
            Comparable(With(retagged, "update_default_version", Value())))
      << "imported: " << FormatValue(imported.state);

  MustDelete(kType, retagged);
  ReadResult gone = provider_.ReadResource(ctx_, kType, retagged);
  EXPECT_FALSE(gone.diags.HasErrors()) << Text(gone.diags);
  EXPECT_TRUE(gone.gone) << FormatValue(gone.state);
  MustDelete(kType, retagged);  // gone is done
  MustDelete("aws_security_group", sg);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2LaunchTemplateTest, NameFromPrefixIsFixedAndConflictingArgumentsAreRefused) {
  Value vpc = Vpc("10.121.0.0/16");
  Value sg = Group(vpc, "lt-prefixed");
  Value config = With(Config("", Str(sg, "id")), "name_prefix", S("gpu-"));
  PlanResult plan = PlanCreate(kType, config);
  EXPECT_TRUE(Attr(plan.planned, "name").IsUnknown());
  ctx_.idempotency_token = NewToken();
  ApplyResult created = provider_.CreateResource(ctx_, kType, plan.planned);
  ctx_.idempotency_token.clear();
  ASSERT_FALSE(created.diags.HasErrors()) << Text(created.diags);
  EXPECT_EQ(Str(created.state, "name").rfind("gpu-", 0), 0u) << Str(created.state, "name");
  EXPECT_EQ(Str(created.state, "name").size(), 4u + 26u);
  ExpectTemplateReadsBack(created.state);
  // The name (and the prefix it came from) is fixed at creation.
  PlanResult renamed = PlanUpdate(kType, created.state, With(With(config, "name_prefix", Value()), "name", S("other")));
  ASSERT_EQ(renamed.requires_replace.size(), 2u);
  EXPECT_EQ(renamed.requires_replace[0].ToString(), "name");
  EXPECT_EQ(renamed.requires_replace[1].ToString(), "name_prefix");
  // Writing both default_version and update_default_version is refused.
  PlanResult both = provider_.PlanResourceChange(ctx_, kType, Value(), With(config, "default_version", N(1)),
                                                 With(config, "default_version", N(1)));
  EXPECT_TRUE(both.diags.HasErrors());
  MustDelete(kType, created.state);
  MustDelete("aws_security_group", sg);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2LaunchTemplateTest, InterruptedCreateIsFoundByItsClientTokenNotDoubled) {
  Value vpc = Vpc("10.122.0.0/16");
  Value sg = Group(vpc, "lt-recovered");
  Value config = With(With(Config("", Str(sg, "id")), "name_prefix", S("rec-")), "tags", Tags({{"Name", "recovered"}}));
  Value planned = PlanCreate(kType, config).planned;
  std::string token = NewToken();
  ApplyResult first = Interrupted(kType, planned, token);
  std::string id = Str(first.state, "id");
  // A destroy cannot resend the token: it finds the template by the token tag.
  ExpectDestroyFinds(kType, planned, token, "id", id);
  EXPECT_EQ(CountTagged("DescribeLaunchTemplates", "launchTemplates", kCreateTokenTag, token), 1);
  Value resumed = first.state;
  if (IsMoto()) {
    SkipLoudly("the re-sent create: moto ignores CreateLaunchTemplate's ClientToken (AWS and the sandbox answer it "
               "with the template the first create made)");
  } else {
    resumed = MustResume(kType, planned, token);
    EXPECT_EQ(Str(resumed, "id"), id) << "the interrupted create was not found";
    EXPECT_EQ(Str(resumed, "name"), Str(first.state, "name"));
    EXPECT_EQ(CountTagged("DescribeLaunchTemplates", "launchTemplates", "Name", "recovered"), 1) << "doubled";
    EXPECT_EQ(Attr(resumed, "latest_version"), N(1));
    ExpectNoTokenTag(resumed);
  }
  // Nothing was made under a fresh token: a destroy finds nothing.
  ExpectDestroyFindsNothing(kType, planned, NewToken());
  MustDelete(kType, resumed);
  MustDelete("aws_security_group", sg);
  MustDelete("aws_vpc", vpc);
}

TEST_P(AwsEc2LaunchTemplateTest, RefusesWhatEc2Refuses) {
  Value vpc = Vpc("10.123.0.0/16");
  Value sg = Group(vpc, "lt-refusals");
  Value state = MustCreate(kType, Config("taken", Str(sg, "id")));
  // The same name again.
  ApplyResult again = Create(kType, With(Config("taken", Str(sg, "id")), "description", S("second")));
  ASSERT_TRUE(again.diags.HasErrors());
  EXPECT_NE(Text(again.diags).find("InvalidLaunchTemplateName.AlreadyExistsException"), std::string::npos)
      << Text(again.diags);
  // A version the template does not have.
  EXPECT_EQ(RawVersion(Str(state, "id"), "9"), "error: InvalidLaunchTemplateId.VersionNotFound");
  EXPECT_EQ(RawEc2("Action=DescribeLaunchTemplateVersions" + Param("LaunchTemplateId", "lt-0123456789abcdef0")),
            "error: InvalidLaunchTemplateId.NotFound");
  EXPECT_EQ(RawEc2("Action=DescribeLaunchTemplates" + Param("LaunchTemplateName.1", "nothing-here")),
            "error: InvalidLaunchTemplateName.NotFoundException");
  // Found by name and by tag.
  EXPECT_EQ(CountItems(RawEc2("Action=DescribeLaunchTemplates" + Param("Filter.1.Name", "launch-template-name") +
                              Param("Filter.1.Value.1", "taken")),
                       "launchTemplates"),
            1);
  EXPECT_EQ(CountTagged("DescribeLaunchTemplates", "launchTemplates", "Name", "taken"), 1);
  if (IsMoto()) {
    SkipLoudly("name, user data and version-number refusals: moto checks none of them");
  } else {
    std::string bad_name = RawEc2("Action=CreateLaunchTemplate" + Param("LaunchTemplateName", "no spaces allowed") +
                                  Param("LaunchTemplateData.InstanceType", "t3.micro"));
    EXPECT_EQ(bad_name, "error: InvalidLaunchTemplateName.MalformedException");
    std::string bad_data = RawEc2("Action=CreateLaunchTemplate" + Param("LaunchTemplateName", "bad-user-data") +
                                  Param("LaunchTemplateData.UserData", "not base64!"));
    EXPECT_EQ(bad_data, "error: InvalidUserData.Malformed");
    std::string small = RawEc2("Action=CreateLaunchTemplate" + Param("LaunchTemplateName", "bad-volume") +
                               Param("LaunchTemplateData.BlockDeviceMapping.1.DeviceName", "/dev/xvda") +
                               Param("LaunchTemplateData.BlockDeviceMapping.1.Ebs.VolumeType", "gp3") +
                               Param("LaunchTemplateData.BlockDeviceMapping.1.Ebs.Iops", "100"));
    EXPECT_EQ(small, "error: InvalidParameterValue");
    std::string modify = RawEc2("Action=ModifyLaunchTemplate" + Param("LaunchTemplateId", Str(state, "id")) +
                                Param("SetDefaultVersion", "7"));
    EXPECT_EQ(modify, "error: InvalidLaunchTemplateId.VersionNotFound");
  }
  MustDelete(kType, state);
  MustDelete("aws_security_group", sg);
  MustDelete("aws_vpc", vpc);
}

STRATA_AWS_BACKENDS(AwsEc2LaunchTemplateTest);

}  // namespace
}  // namespace strata::aws
