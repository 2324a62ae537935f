// Recovery of an interrupted create of the aws provider's IAM types, against the sandbox
// and moto: the engine re-sends a create after a crash with the same token and
// resume_interrupted_create, and the object the first run made must be found, not made a
// second time (recovery_test_support.h). Per type:
//  - aws_iam_role, aws_iam_policy, aws_iam_openid_connect_provider, aws_iam_instance_profile
//    (NaturalKey, with the token tag as proof of ownership): the same object comes back (a
//    plain re-send would fail with EntityAlreadyExists) and there is one of that key; a
//    fresh token creates; an object of that key without this create's token (none, or
//    another's) is an error naming `strata import`, and is left as it was; state never
//    shows the strata:create-token tag, which a tag update leaves on the object; a profile
//    caught before its role was added gets it;
//  - aws_iam_role_policy_attachment (NaturalKey: the pair is the whole object, so any
//    attachment of the pair is the planned one and there is no "not ours" case).
// Where moto departs from AWS, the case says so:
//  - moto has no ListInstanceProfileTags: a profile's tags are looked at through
//    GetInstanceProfile.

#include "recovery_test_support.h"

namespace strata::aws {
namespace {

using namespace backendtest;
using attrs::With;

const char* kTrust = R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow",)"
                     R"("Principal":{"Service":"ec2.amazonaws.com"},"Action":"sts:AssumeRole"}]})";
const char* kPolicy = R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:ListBucket","Resource":"*"}]})";

Value Strings(std::initializer_list<const char*> items, bool set) {
  ValueList out;
  for (const char* s : items) out.push_back(S(s));
  return set ? Value::Set(std::move(out)) : Value::List(std::move(out));
}

//! How the cases below look at one IAM type behind the provider's back.
struct IamListing {
  const char* type;
  //! How many objects of `state`'s key the backend lists.
  std::function<int(const Value& state)> count;
  //! The backend's List*Tags answer for `state`'s object.
  std::function<std::string(const Value& state)> tags;
};

class AwsIamRecoveryTest : public RecoveryTest {
 protected:
  AwsIamRecoveryTest() : RecoveryTest("IAM create recovery", {"iam", "sts"}, "us-east-1") {}

  IamListing Roles() {
    return {"aws_iam_role",
            [this](const Value& s) { return Occurrences(RawIam("Action=ListRoles"), "<RoleName>" + Str(s, "name") + "</RoleName>"); },
            [this](const Value& s) { return RawIam("Action=ListRoleTags" + Param("RoleName", Str(s, "name"))); }};
  }
  IamListing Policies() {
    return {"aws_iam_policy",
            [this](const Value& s) {
              return Occurrences(RawIam("Action=ListPolicies&Scope=Local"), "<PolicyName>" + Str(s, "name") + "</PolicyName>");
            },
            [this](const Value& s) { return RawIam("Action=ListPolicyTags" + Param("PolicyArn", Str(s, "arn"))); }};
  }
  IamListing OidcProviders() {
    return {"aws_iam_openid_connect_provider",
            [this](const Value& s) { return Occurrences(RawIam("Action=ListOpenIDConnectProviders"), Str(s, "arn") + "<"); },
            [this](const Value& s) {
              return RawIam("Action=ListOpenIDConnectProviderTags" + Param("OpenIDConnectProviderArn", Str(s, "arn")));
            }};
  }
  IamListing Profiles() {
    return {"aws_iam_instance_profile",
            [this](const Value& s) {
              return Occurrences(RawIam("Action=ListInstanceProfiles"),
                                 "<InstanceProfileName>" + Str(s, "name") + "</InstanceProfileName>");
            },
            // GetInstanceProfile tells the tags too; moto has no ListInstanceProfileTags.
            [this](const Value& s) { return RawIam("Action=GetInstanceProfile" + Param("InstanceProfileName", Str(s, "name"))); }};
  }

  //! The cases of one NaturalKey type that tags its creates; `config`, `fresh` and
  //! `theirs` have distinct keys and carry `tags`. An interrupted create of `config`
  //! resumed under its token gives the first run's object, one of that key, state without
  //! the token tag, which a tag update leaves on the object; resumed under another token,
  //! it is not taken. `fresh` resumed under a token nothing was made with is created with
  //! it. `theirs`, made without a token, is not taken by a recovery either.
  void ExpectTaggedKeyRecovery(const IamListing& kind, const Value& config, const Value& fresh, const Value& theirs) {
    Value planned = PlanCreate(kind.type, config).planned;
    std::string token = NewToken();
    ApplyResult first = Interrupted(kind.type, planned, token);
    ExpectDestroyFinds(kind.type, planned, token, "arn", Str(first.state, "arn"));
    Value resumed = MustResume(kind.type, planned, token);
    EXPECT_EQ(Str(resumed, "arn"), Str(first.state, "arn")) << kind.type;
    EXPECT_EQ(Attr(resumed, "unique_id"), Attr(first.state, "unique_id")) << kind.type;
    EXPECT_EQ(kind.count(resumed), 1) << kind.type;
    ExpectNoTokenTag(resumed);
    ExpectReadsBack(kind.type, resumed);
    EXPECT_NE(kind.tags(resumed).find(token), std::string::npos) << kind.tags(resumed);

    PlanResult retag = PlanUpdate(kind.type, resumed, With(config, "tags", Tags({{"Name", "retagged"}})));
    ApplyResult retagged = provider_.UpdateResource(ctx_, kind.type, resumed, retag.planned);
    ASSERT_FALSE(retagged.diags.HasErrors()) << Text(retagged.diags);
    EXPECT_EQ(Attr(retagged.state, "tags_all"), Tags({{"Name", "retagged"}, {"Owner", "strata-tests"}}));
    ExpectNoTokenTag(retagged.state);
    EXPECT_NE(kind.tags(resumed).find(token), std::string::npos) << "a tag update removed the create-token tag";

    // Another create's object of that key: a destroy leaves it alone.
    ExpectNotOursError(Resume(kind.type, planned, NewToken()));
    ExpectDestroyFindsNothing(kind.type, planned, NewToken());
    ExpectReadsBack(kind.type, retagged.state);

    std::string fresh_token = NewToken();
    Value made = MustResume(kind.type, PlanCreate(kind.type, fresh).planned, fresh_token);
    EXPECT_NE(Str(made, "arn"), Str(resumed, "arn")) << kind.type;
    EXPECT_EQ(kind.count(made), 1) << kind.type;
    EXPECT_NE(kind.tags(made).find(fresh_token), std::string::npos) << kind.tags(made);
    ExpectNoTokenTag(made);

    // An object of that key made without a token (by hand, by another tool).
    Value other = MustCreate(kind.type, theirs);
    ExpectNotOursError(Resume(kind.type, PlanCreate(kind.type, theirs).planned, NewToken()));
    ExpectReadsBack(kind.type, other);

    for (const Value& done : {retagged.state, made, other}) MustDelete(kind.type, done);
  }

  Value Role(const std::string& name) {
    return Value::Object({{"name", S(name)}, {"assume_role_policy", S(kTrust)}, {"tags", Tags({{"Name", name}})}});
  }
  Value Policy(const std::string& name) {
    return Value::Object({{"name", S(name)}, {"policy", S(kPolicy)}, {"tags", Tags({{"Name", name}})}});
  }
};

TEST_P(AwsIamRecoveryTest, RoleInterruptedCreateIsFoundNotDoubled) {
  ExpectTaggedKeyRecovery(Roles(), Role("rec-role-a"), Role("rec-role-b"), Role("rec-role-c"));
}

TEST_P(AwsIamRecoveryTest, PolicyInterruptedCreateIsFoundNotDoubled) {
  ExpectTaggedKeyRecovery(Policies(), Policy("rec-policy-a"), Policy("rec-policy-b"), Policy("rec-policy-c"));
}

TEST_P(AwsIamRecoveryTest, OpenidConnectProviderInterruptedCreateIsFoundNotDoubled) {
  auto provider = [](const std::string& id) {
    return Value::Object({{"url", S("https://oidc.eks.us-east-1.amazonaws.com/id/" + id)},
                          {"client_id_list", Strings({"sts.amazonaws.com"}, true)},
                          {"thumbprint_list", Strings({"9e99a48a9960b14926bb7f3b02e22da2b0ab7280"}, false)},
                          {"tags", Tags({{"Name", id}})}});
  };
  ExpectTaggedKeyRecovery(OidcProviders(), provider("RECOVERYA"), provider("RECOVERYB"), provider("RECOVERYC"));
}

TEST_P(AwsIamRecoveryTest, InstanceProfileInterruptedCreateIsFoundNotDoubled) {
  auto profile = [](const std::string& name) { return Value::Object({{"name", S(name)}, {"tags", Tags({{"Name", name}})}}); };
  ExpectTaggedKeyRecovery(Profiles(), profile("rec-profile-a"), profile("rec-profile-b"), profile("rec-profile-c"));
}

TEST_P(AwsIamRecoveryTest, InstanceProfileNamedFromAPrefixIsFoundByTheSameName) {
  Value planned = PlanCreate("aws_iam_instance_profile", Value::Object({{"name_prefix", S("rec-")}})).planned;
  std::string token = NewToken();
  ApplyResult first = Interrupted("aws_iam_instance_profile", planned, token);
  Value resumed = MustResume("aws_iam_instance_profile", planned, token);
  EXPECT_EQ(Str(resumed, "name"), "rec-" + token.substr(0, 26));
  EXPECT_EQ(Str(resumed, "unique_id"), Str(first.state, "unique_id"));
  EXPECT_EQ(Profiles().count(resumed), 1);
  MustDelete("aws_iam_instance_profile", resumed);
}

TEST_P(AwsIamRecoveryTest, InstanceProfileCaughtBeforeItsRoleWasAddedGetsIt) {
  Value role = MustCreate("aws_iam_role", Role("rec-profile-role"));
  std::string token = NewToken();
  // The first run died between CreateInstanceProfile and AddRoleToInstanceProfile.
  std::string created = RawIam("Action=CreateInstanceProfile" + Param("InstanceProfileName", "rec-profile-partial") +
                               Param("Tags.member.1.Key", kCreateTokenTag) + Param("Tags.member.1.Value", token));
  ASSERT_NE(created.find("rec-profile-partial"), std::string::npos) << created;
  Value config = Value::Object({{"name", S("rec-profile-partial")}, {"role", S("rec-profile-role")}});
  Value profile = MustResume("aws_iam_instance_profile", PlanCreate("aws_iam_instance_profile", config).planned, token);
  EXPECT_EQ(Str(profile, "role"), "rec-profile-role");
  ExpectNoTokenTag(profile);
  ExpectReadsBack("aws_iam_instance_profile", profile);
  MustDelete("aws_iam_instance_profile", profile);
  MustDelete("aws_iam_role", role);
}

TEST_P(AwsIamRecoveryTest, RolePolicyAttachmentInterruptedCreateIsFoundNotDoubled) {
  Value role = MustCreate("aws_iam_role", Role("rec-attached-role"));
  Value p1 = MustCreate("aws_iam_policy", Policy("rec-attached-1")), p2 = MustCreate("aws_iam_policy", Policy("rec-attached-2"));
  auto attachment = [&](const Value& policy) {
    return PlanCreate("aws_iam_role_policy_attachment", Value::Object({{"role", S("rec-attached-role")}, {"policy_arn", Attr(policy, "arn")}}))
        .planned;
  };
  auto attached = [&](const Value& policy) {
    return Occurrences(RawIam("Action=ListAttachedRolePolicies" + Param("RoleName", "rec-attached-role")),
                       "<PolicyArn>" + Str(policy, "arn") + "</PolicyArn>");
  };
  std::string token = NewToken();
  ApplyResult first = Interrupted("aws_iam_role_policy_attachment", attachment(p1), token);
  Value a = MustResume("aws_iam_role_policy_attachment", attachment(p1), token);
  EXPECT_EQ(Str(a, "id"), Str(first.state, "id"));
  EXPECT_EQ(attached(p1), 1);
  ExpectReadsBack("aws_iam_role_policy_attachment", a);

  Value b = MustResume("aws_iam_role_policy_attachment", attachment(p2), NewToken());
  EXPECT_EQ(Str(b, "id"), "rec-attached-role/" + Str(p2, "arn"));
  EXPECT_EQ(attached(p2), 1);

  MustDelete("aws_iam_role_policy_attachment", a);
  MustDelete("aws_iam_role_policy_attachment", b);
  MustDelete("aws_iam_policy", p1);
  MustDelete("aws_iam_policy", p2);
  MustDelete("aws_iam_role", role);
}

STRATA_AWS_BACKENDS(AwsIamRecoveryTest);

}  // namespace
}  // namespace strata::aws
