// The sandbox's IAM service called directly: roles, inline and managed policies,
// attachments, OIDC providers, instance profiles, the AWS managed catalogue, and the
// error codes, URL-encoded documents and pagination a real IAM client relies on.

#include <algorithm>
#include <cctype>

#include <gtest/gtest.h>

#include "providers/aws/http/url.h"
#include "tests/unit/sandbox/iam_test_support.h"

namespace strata::sandbox {
namespace {

using testing::QueryResult;
using testing::QueryServiceHarness;

constexpr const char* kTrust =
    R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"eks.amazonaws.com"},"Action":"sts:AssumeRole"}]})";
constexpr const char* kPolicy =
    R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"*"}]})";
constexpr const char* kPolicy2 =
    R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:ListBucket","Resource":"*"}]})";

class IamServiceTest : public ::testing::Test {
 protected:
  IamServiceTest() : iam_(NewIamService(), "iam", "2010-05-08") {}

  QueryResult Call(const std::string& action,
                   const std::vector<std::pair<std::string, std::string>>& params = {}) {
    return iam_.Call(action, params);
  }

  QueryResult CreateRole(const std::string& name,
                         std::vector<std::pair<std::string, std::string>> extra = {}) {
    extra.insert(extra.begin(), {{"RoleName", name}, {"AssumeRolePolicyDocument", kTrust}});
    return Call("CreateRole", extra);
  }

  std::string CreatePolicy(const std::string& name, const std::string& path = "/") {
    QueryResult r = Call("CreatePolicy", {{"PolicyName", name}, {"Path", path}, {"PolicyDocument", kPolicy}});
    EXPECT_TRUE(r.ok()) << r.code << ": " << r.message;
    return r.Text("Policy/Arn");
  }

  QueryServiceHarness iam_;
};

void ExpectError(const QueryResult& r, int status, const std::string& code) {
  EXPECT_EQ(r.status, status) << r.code << ": " << r.message;
  EXPECT_EQ(r.code, code) << r.message;
}

std::vector<std::string> Members(pugi::xml_node list, const char* field) {
  std::vector<std::string> out;
  for (pugi::xml_node m : list.children("member")) {
    out.push_back(field ? m.child_value(field) : m.child_value());
  }
  return out;
}

// --- roles -------------------------------------------------------------------------------

TEST_F(IamServiceTest, CreateRoleAnswersTheRoleWithAnEncodedTrustPolicy) {
  QueryResult r = CreateRole("eks-cluster", {{"Path", "/eks/"},
                                             {"Description", "cluster role"},
                                             {"Tags.member.1.Key", "team"},
                                             {"Tags.member.1.Value", "platform"}});
  ASSERT_TRUE(r.ok()) << r.code << ": " << r.message;
  EXPECT_EQ(r.doc->first_child().name(), std::string("CreateRoleResponse"));
  EXPECT_EQ(r.doc->first_child().attribute("xmlns").value(),
            std::string("https://iam.amazonaws.com/doc/2010-05-08/"));
  EXPECT_FALSE(std::string(r.doc->first_child().child("ResponseMetadata").child_value("RequestId")).empty());
  EXPECT_EQ(r.Text("Role/RoleName"), "eks-cluster");
  EXPECT_EQ(r.Text("Role/Path"), "/eks/");
  EXPECT_EQ(r.Text("Role/Arn"), "arn:aws:iam::111122223333:role/eks/eks-cluster");
  std::string id = r.Text("Role/RoleId");
  EXPECT_EQ(id.size(), 21u);
  EXPECT_EQ(id.substr(0, 4), "AROA");
  for (char c : id) EXPECT_TRUE(std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c))) << id;
  std::string document = r.Text("Role/AssumeRolePolicyDocument");
  EXPECT_EQ(document, aws::UriEncode(kTrust));
  EXPECT_EQ(document.find('{'), std::string::npos);
  EXPECT_EQ(aws::UriDecode(document), kTrust);
  EXPECT_EQ(r.Text("Role/MaxSessionDuration"), "3600");
  EXPECT_EQ(r.Text("Role/Description"), "cluster role");
  EXPECT_EQ(r.Text("Role/CreateDate"), "2026-03-01T10:00:00.000Z");
  EXPECT_EQ(r.Text("Role/Tags/member/Key"), "team");
  EXPECT_EQ(r.Text("Role/Tags/member/Value"), "platform");
}

TEST_F(IamServiceTest, GetRoleFindsTheRoleAndNamesAMissingOne) {
  ASSERT_TRUE(CreateRole("app").ok());
  QueryResult got = Call("GetRole", {{"RoleName", "app"}});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got.Text("Role/RoleName"), "app");
  EXPECT_EQ(aws::UriDecode(got.Text("Role/AssumeRolePolicyDocument")), kTrust);

  QueryResult missing = Call("GetRole", {{"RoleName", "nope"}});
  ExpectError(missing, 404, "NoSuchEntity");
  EXPECT_EQ(missing.message, "The role with name nope cannot be found.");
}

TEST_F(IamServiceTest, RoleNamesAreUniqueRegardlessOfCase) {
  ASSERT_TRUE(CreateRole("App").ok());
  ExpectError(CreateRole("App"), 409, "EntityAlreadyExists");
  ExpectError(CreateRole("app"), 409, "EntityAlreadyExists");
  EXPECT_EQ(Call("GetRole", {{"RoleName", "APP"}}).Text("Role/RoleName"), "App");
}

TEST_F(IamServiceTest, CreateRoleValidatesItsParameters) {
  ExpectError(Call("CreateRole", {{"AssumeRolePolicyDocument", kTrust}}), 400, "ValidationError");
  ExpectError(Call("CreateRole", {{"RoleName", "x"}}), 400, "ValidationError");
  ExpectError(CreateRole("bad name"), 400, "ValidationError");
  ExpectError(CreateRole(std::string(65, 'a')), 400, "ValidationError");
  ExpectError(CreateRole("r", {{"Path", "no-slashes"}}), 400, "ValidationError");
  ExpectError(CreateRole("r", {{"MaxSessionDuration", "60"}}), 400, "ValidationError");
  ExpectError(Call("CreateRole", {{"RoleName", "r"}, {"AssumeRolePolicyDocument", "{not json"}}),
              400, "MalformedPolicyDocument");
  ExpectError(Call("CreateRole", {{"RoleName", "r"}, {"AssumeRolePolicyDocument", kPolicy}}), 400,
              "MalformedPolicyDocument");
  QueryResult missing = Call("CreateRole", {{"AssumeRolePolicyDocument", kTrust}});
  EXPECT_NE(missing.message.find("'roleName'"), std::string::npos) << missing.message;
  EXPECT_TRUE(Members(Call("ListRoles").result().child("Roles"), "RoleName").empty());
}

TEST_F(IamServiceTest, UpdateRoleAndAssumeRolePolicyAndTags) {
  ASSERT_TRUE(CreateRole("app", {{"Tags.member.1.Key", "a"}, {"Tags.member.1.Value", "1"}}).ok());
  QueryResult updated = Call("UpdateRole", {{"RoleName", "app"}, {"Description", "new"}, {"MaxSessionDuration", "7200"}});
  ASSERT_TRUE(updated.ok()) << updated.message;
  EXPECT_TRUE(updated.result());  // <UpdateRoleResult/>
  std::string trust2 =
      R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"ec2.amazonaws.com"},"Action":"sts:AssumeRole"}]})";
  QueryResult policy = Call("UpdateAssumeRolePolicy", {{"RoleName", "app"}, {"PolicyDocument", trust2}});
  ASSERT_TRUE(policy.ok());
  EXPECT_EQ(policy.doc->first_child().first_child().name(), std::string("ResponseMetadata"));
  ASSERT_TRUE(Call("TagRole", {{"RoleName", "app"}, {"Tags.member.1.Key", "b"}, {"Tags.member.1.Value", "2"},
                               {"Tags.member.2.Key", "A"}, {"Tags.member.2.Value", "one"}}).ok());
  ASSERT_TRUE(Call("UntagRole", {{"RoleName", "app"}, {"TagKeys.member.1", "b"}}).ok());

  QueryResult got = Call("GetRole", {{"RoleName", "app"}});
  EXPECT_EQ(got.Text("Role/Description"), "new");
  EXPECT_EQ(got.Text("Role/MaxSessionDuration"), "7200");
  EXPECT_EQ(aws::UriDecode(got.Text("Role/AssumeRolePolicyDocument")), trust2);
  QueryResult tags = Call("ListRoleTags", {{"RoleName", "app"}});
  ASSERT_TRUE(tags.ok());
  // Role tag keys ignore case: "A" replaced "a".
  EXPECT_EQ(Members(tags.result().child("Tags"), "Key"), std::vector<std::string>{"A"});
  EXPECT_EQ(Members(tags.result().child("Tags"), "Value"), std::vector<std::string>{"one"});
  EXPECT_EQ(tags.Text("IsTruncated"), "false");
}

TEST_F(IamServiceTest, ListRolesPaginatesWithMarker) {
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(CreateRole("role-" + std::to_string(i)).ok());
  std::vector<std::string> names;
  std::string marker;
  int pages = 0;
  do {
    std::vector<std::pair<std::string, std::string>> params = {{"MaxItems", "2"}};
    if (!marker.empty()) params.push_back({"Marker", marker});
    QueryResult page = Call("ListRoles", params);
    ASSERT_TRUE(page.ok()) << page.message;
    for (const std::string& n : Members(page.result().child("Roles"), "RoleName")) names.push_back(n);
    marker = page.Text("IsTruncated") == "true" ? page.Text("Marker") : "";
    ++pages;
  } while (!marker.empty() && pages < 10);
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(names, (std::vector<std::string>{"role-0", "role-1", "role-2", "role-3", "role-4"}));
  ExpectError(Call("ListRoles", {{"Marker", "garbage"}}), 400, "ValidationError");
  ExpectError(Call("ListRoles", {{"MaxItems", "0"}}), 400, "ValidationError");
}

TEST_F(IamServiceTest, ListRolesFiltersByPathPrefix) {
  ASSERT_TRUE(CreateRole("a", {{"Path", "/eks/"}}).ok());
  ASSERT_TRUE(CreateRole("b").ok());
  QueryResult r = Call("ListRoles", {{"PathPrefix", "/eks"}});
  EXPECT_EQ(Members(r.result().child("Roles"), "RoleName"), std::vector<std::string>{"a"});
}

// --- inline role policies ----------------------------------------------------------------

TEST_F(IamServiceTest, InlineRolePolicies) {
  ASSERT_TRUE(CreateRole("app").ok());
  ASSERT_TRUE(Call("PutRolePolicy", {{"RoleName", "app"}, {"PolicyName", "s3"}, {"PolicyDocument", kPolicy}}).ok());
  ASSERT_TRUE(Call("PutRolePolicy", {{"RoleName", "app"}, {"PolicyName", "b"}, {"PolicyDocument", kPolicy2}}).ok());
  QueryResult got = Call("GetRolePolicy", {{"RoleName", "app"}, {"PolicyName", "s3"}});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got.Text("RoleName"), "app");
  EXPECT_EQ(got.Text("PolicyDocument"), aws::UriEncode(kPolicy));
  QueryResult listed = Call("ListRolePolicies", {{"RoleName", "app"}});
  EXPECT_EQ(Members(listed.result().child("PolicyNames"), nullptr), (std::vector<std::string>{"b", "s3"}));

  ExpectError(Call("PutRolePolicy", {{"RoleName", "app"}, {"PolicyName", "x"}, {"PolicyDocument", "nope"}}),
              400, "MalformedPolicyDocument");
  ExpectError(Call("GetRolePolicy", {{"RoleName", "app"}, {"PolicyName", "zz"}}), 404, "NoSuchEntity");
  ExpectError(Call("PutRolePolicy", {{"RoleName", "ghost"}, {"PolicyName", "x"}, {"PolicyDocument", kPolicy}}),
              404, "NoSuchEntity");

  QueryResult conflict = Call("DeleteRole", {{"RoleName", "app"}});
  ExpectError(conflict, 409, "DeleteConflict");
  EXPECT_EQ(conflict.message, "Cannot delete entity, must delete policies first.");
  ASSERT_TRUE(Call("DeleteRolePolicy", {{"RoleName", "app"}, {"PolicyName", "s3"}}).ok());
  ASSERT_TRUE(Call("DeleteRolePolicy", {{"RoleName", "app"}, {"PolicyName", "b"}}).ok());
  ExpectError(Call("DeleteRolePolicy", {{"RoleName", "app"}, {"PolicyName", "b"}}), 404, "NoSuchEntity");
  EXPECT_TRUE(Call("DeleteRole", {{"RoleName", "app"}}).ok());
  ExpectError(Call("GetRole", {{"RoleName", "app"}}), 404, "NoSuchEntity");
}

// --- managed policies --------------------------------------------------------------------

TEST_F(IamServiceTest, CreateAndGetPolicyAndItsVersion) {
  QueryResult created = Call("CreatePolicy", {{"PolicyName", "reader"},
                                              {"Path", "/team/"},
                                              {"PolicyDocument", kPolicy},
                                              {"Description", "reads"},
                                              {"Tags.member.1.Key", "k"},
                                              {"Tags.member.1.Value", "v"}});
  ASSERT_TRUE(created.ok()) << created.message;
  std::string arn = created.Text("Policy/Arn");
  EXPECT_EQ(arn, "arn:aws:iam::111122223333:policy/team/reader");
  EXPECT_EQ(created.Text("Policy/PolicyId").substr(0, 4), "ANPA");
  EXPECT_EQ(created.Text("Policy/DefaultVersionId"), "v1");
  EXPECT_EQ(created.Text("Policy/AttachmentCount"), "0");
  EXPECT_EQ(created.Text("Policy/IsAttachable"), "true");

  QueryResult got = Call("GetPolicy", {{"PolicyArn", arn}});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got.Text("Policy/PolicyName"), "reader");
  EXPECT_EQ(got.Text("Policy/Description"), "reads");
  EXPECT_EQ(got.Text("Policy/Tags/member/Key"), "k");
  QueryResult version = Call("GetPolicyVersion", {{"PolicyArn", arn}, {"VersionId", "v1"}});
  ASSERT_TRUE(version.ok());
  EXPECT_EQ(version.Text("PolicyVersion/Document"), aws::UriEncode(kPolicy));
  EXPECT_EQ(version.Text("PolicyVersion/IsDefaultVersion"), "true");
  ExpectError(Call("GetPolicyVersion", {{"PolicyArn", arn}, {"VersionId", "v7"}}), 404, "NoSuchEntity");
  ExpectError(Call("GetPolicy", {{"PolicyArn", "arn:aws:iam::111122223333:policy/none"}}), 404, "NoSuchEntity");
  ExpectError(Call("CreatePolicy", {{"PolicyName", "READER"}, {"PolicyDocument", kPolicy}}), 409,
              "EntityAlreadyExists");
  ExpectError(Call("CreatePolicy", {{"PolicyName", "p"}, {"PolicyDocument", kTrust}}), 400,
              "MalformedPolicyDocument");
}

TEST_F(IamServiceTest, PolicyVersionsLimitDefaultAndDeletion) {
  std::string arn = CreatePolicy("p");
  for (int i = 2; i <= 5; ++i) {
    QueryResult v = Call("CreatePolicyVersion", {{"PolicyArn", arn}, {"PolicyDocument", kPolicy2}, {"SetAsDefault", i == 3 ? "true" : "false"}});
    ASSERT_TRUE(v.ok()) << v.message;
    EXPECT_EQ(v.Text("PolicyVersion/VersionId"), "v" + std::to_string(i));
    EXPECT_EQ(v.Text("PolicyVersion/IsDefaultVersion"), i == 3 ? "true" : "false");
  }
  ExpectError(Call("CreatePolicyVersion", {{"PolicyArn", arn}, {"PolicyDocument", kPolicy2}}), 409, "LimitExceeded");
  EXPECT_EQ(Call("GetPolicy", {{"PolicyArn", arn}}).Text("Policy/DefaultVersionId"), "v3");

  QueryResult versions = Call("ListPolicyVersions", {{"PolicyArn", arn}});
  EXPECT_EQ(Members(versions.result().child("Versions"), "VersionId"),
            (std::vector<std::string>{"v5", "v4", "v3", "v2", "v1"}));
  EXPECT_EQ(versions.result().child("Versions").child("member").child("Document"), pugi::xml_node());

  QueryResult conflict = Call("DeletePolicyVersion", {{"PolicyArn", arn}, {"VersionId", "v3"}});
  ExpectError(conflict, 409, "DeleteConflict");
  ASSERT_TRUE(Call("DeletePolicyVersion", {{"PolicyArn", arn}, {"VersionId", "v1"}}).ok());
  QueryResult v6 = Call("CreatePolicyVersion", {{"PolicyArn", arn}, {"PolicyDocument", kPolicy}});
  EXPECT_EQ(v6.Text("PolicyVersion/VersionId"), "v6");  // numbers are not reused
  ASSERT_TRUE(Call("SetDefaultPolicyVersion", {{"PolicyArn", arn}, {"VersionId", "v6"}}).ok());
  ExpectError(Call("SetDefaultPolicyVersion", {{"PolicyArn", arn}, {"VersionId", "v1"}}), 404, "NoSuchEntity");

  // DeletePolicy wants the non-default versions gone first.
  ExpectError(Call("DeletePolicy", {{"PolicyArn", arn}}), 409, "DeleteConflict");
  for (const char* v : {"v2", "v3", "v4", "v5"}) {
    ASSERT_TRUE(Call("DeletePolicyVersion", {{"PolicyArn", arn}, {"VersionId", v}}).ok()) << v;
  }
  EXPECT_TRUE(Call("DeletePolicy", {{"PolicyArn", arn}}).ok());
  ExpectError(Call("GetPolicy", {{"PolicyArn", arn}}), 404, "NoSuchEntity");
}

TEST_F(IamServiceTest, PolicyTags) {
  std::string arn = CreatePolicy("p");
  ASSERT_TRUE(Call("TagPolicy", {{"PolicyArn", arn}, {"Tags.member.1.Key", "a"}, {"Tags.member.1.Value", "1"},
                                 {"Tags.member.2.Key", "b"}, {"Tags.member.2.Value", "2"}}).ok());
  ASSERT_TRUE(Call("UntagPolicy", {{"PolicyArn", arn}, {"TagKeys.member.1", "a"}}).ok());
  QueryResult tags = Call("ListPolicyTags", {{"PolicyArn", arn}});
  EXPECT_EQ(Members(tags.result().child("Tags"), "Key"), std::vector<std::string>{"b"});
  ExpectError(Call("TagPolicy", {{"PolicyArn", arn}}), 400, "ValidationError");
}

TEST_F(IamServiceTest, ManagedPolicyCatalogueIsThere) {
  for (const char* arn : {"arn:aws:iam::aws:policy/AmazonEKSClusterPolicy",
                          "arn:aws:iam::aws:policy/AmazonEKSVPCResourceController",
                          "arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy",
                          "arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy",
                          "arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryReadOnly",
                          "arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore",
                          "arn:aws:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy",
                          "arn:aws:iam::aws:policy/AdministratorAccess",
                          "arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess"}) {
    QueryResult got = Call("GetPolicy", {{"PolicyArn", arn}});
    ASSERT_TRUE(got.ok()) << arn << ": " << got.message;
    EXPECT_EQ(got.Text("Policy/Arn"), arn);
    QueryResult version = Call("GetPolicyVersion", {{"PolicyArn", arn}, {"VersionId", got.Text("Policy/DefaultVersionId")}});
    ASSERT_TRUE(version.ok()) << arn;
    Json document = Json::parse(aws::UriDecode(version.Text("PolicyVersion/Document")));
    EXPECT_EQ(document["Version"], "2012-10-17") << arn;
    EXPECT_FALSE(document["Statement"].empty()) << arn;
  }
  QueryResult csi = Call("GetPolicy", {{"PolicyArn", "arn:aws:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy"}});
  EXPECT_EQ(csi.Text("Policy/Path"), "/service-role/");
  ExpectError(Call("GetPolicy", {{"PolicyArn", "arn:aws:iam::aws:policy/NoSuchPolicy"}}), 404, "NoSuchEntity");
  ExpectError(Call("DeletePolicy", {{"PolicyArn", "arn:aws:iam::aws:policy/AdministratorAccess"}}), 400,
              "UnmodifiableEntity");

  std::string local = CreatePolicy("mine");
  auto names = [&](const std::string& scope) {
    std::vector<std::string> out;
    std::string marker;
    do {
      std::vector<std::pair<std::string, std::string>> params = {{"Scope", scope}, {"MaxItems", "1000"}};
      if (!marker.empty()) params.push_back({"Marker", marker});
      QueryResult page = Call("ListPolicies", params);
      EXPECT_TRUE(page.ok()) << page.message;
      for (const std::string& arn : Members(page.result().child("Policies"), "Arn")) out.push_back(arn);
      marker = page.Text("IsTruncated") == "true" ? page.Text("Marker") : "";
    } while (!marker.empty());
    return out;
  };
  std::vector<std::string> aws_scope = names("AWS"), local_scope = names("Local"), all = names("All");
  EXPECT_EQ(local_scope, std::vector<std::string>{local});
  EXPECT_GE(aws_scope.size(), 1400u);  // every managed policy AWS lists, not a handful
  EXPECT_EQ(all.size(), aws_scope.size() + 1);
  EXPECT_EQ(std::count(aws_scope.begin(), aws_scope.end(), local), 0);
}

// Policies beyond the abridged ones are known by name, path and version (an attachment of
// one works as on AWS); a near miss of a real name is refused as AWS refuses it.
TEST_F(IamServiceTest, EveryManagedPolicyIsKnownByArn) {
  for (const char* arn : {"arn:aws:iam::aws:policy/AmazonEKSBlockStoragePolicy",
                          "arn:aws:iam::aws:policy/aws-service-role/AmazonEKSServiceRolePolicy",
                          "arn:aws:iam::aws:policy/ElasticLoadBalancingFullAccess"}) {
    QueryResult got = Call("GetPolicy", {{"PolicyArn", arn}});
    ASSERT_TRUE(got.ok()) << arn << ": " << got.message;
    EXPECT_EQ(got.Text("Policy/Arn"), arn);
    EXPECT_EQ(got.Text("Policy/PolicyId").substr(0, 4), "ANPA") << arn;
    QueryResult version = Call("GetPolicyVersion", {{"PolicyArn", arn}, {"VersionId", got.Text("Policy/DefaultVersionId")}});
    EXPECT_TRUE(version.ok()) << arn << ": " << version.message;
  }
  EXPECT_EQ(Call("GetPolicy", {{"PolicyArn", "arn:aws:iam::aws:policy/aws-service-role/AmazonEKSServiceRolePolicy"}})
                .Text("Policy/Path"),
            "/aws-service-role/");
  ASSERT_TRUE(CreateRole("node").ok());
  EXPECT_TRUE(Call("AttachRolePolicy", {{"RoleName", "node"},
                                        {"PolicyArn", "arn:aws:iam::aws:policy/AmazonEKSBlockStoragePolicy"}})
                  .ok());
  ExpectError(Call("AttachRolePolicy", {{"RoleName", "node"},
                                        {"PolicyArn", "arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicies"}}),
              404, "NoSuchEntity");
  ExpectError(Call("AttachRolePolicy", {{"RoleName", "node"},
                                        {"PolicyArn", "arn:aws:iam::aws:policy/AmazonEBSCSIDriverPolicy"}}),
              404, "NoSuchEntity");  // it lives under /service-role/
}

// --- attachments -------------------------------------------------------------------------

TEST_F(IamServiceTest, AttachDetachAndListAttachedRolePolicies) {
  ASSERT_TRUE(CreateRole("node").ok());
  std::string local = CreatePolicy("mine", "/team/");
  const std::string worker = "arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy";
  const std::string csi = "arn:aws:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy";
  for (const std::string& arn : {worker, csi, local}) {
    ASSERT_TRUE(Call("AttachRolePolicy", {{"RoleName", "node"}, {"PolicyArn", arn}}).ok()) << arn;
  }
  ASSERT_TRUE(Call("AttachRolePolicy", {{"RoleName", "node"}, {"PolicyArn", worker}}).ok());  // again: no-op
  ExpectError(Call("AttachRolePolicy", {{"RoleName", "ghost"}, {"PolicyArn", worker}}), 404, "NoSuchEntity");
  ExpectError(Call("AttachRolePolicy", {{"RoleName", "node"}, {"PolicyArn", "arn:aws:iam::111122223333:policy/none"}}),
              404, "NoSuchEntity");

  QueryResult all = Call("ListAttachedRolePolicies", {{"RoleName", "node"}});
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(Members(all.result().child("AttachedPolicies"), "PolicyArn"),
            (std::vector<std::string>{worker, csi, local}));
  EXPECT_EQ(Members(all.result().child("AttachedPolicies"), "PolicyName"),
            (std::vector<std::string>{"AmazonEKSWorkerNodePolicy", "AmazonEBSCSIDriverPolicy", "mine"}));
  QueryResult filtered = Call("ListAttachedRolePolicies", {{"RoleName", "node"}, {"PathPrefix", "/service-role/"}});
  EXPECT_EQ(Members(filtered.result().child("AttachedPolicies"), "PolicyArn"), std::vector<std::string>{csi});
  QueryResult first = Call("ListAttachedRolePolicies", {{"RoleName", "node"}, {"MaxItems", "2"}});
  EXPECT_EQ(first.Text("IsTruncated"), "true");
  QueryResult second = Call("ListAttachedRolePolicies", {{"RoleName", "node"}, {"Marker", first.Text("Marker")}});
  EXPECT_EQ(Members(second.result().child("AttachedPolicies"), "PolicyArn"), std::vector<std::string>{local});
  EXPECT_EQ(second.Text("IsTruncated"), "false");
  EXPECT_EQ(second.result().child("Marker"), pugi::xml_node());

  EXPECT_EQ(Call("GetPolicy", {{"PolicyArn", local}}).Text("Policy/AttachmentCount"), "1");
  EXPECT_EQ(Call("GetPolicy", {{"PolicyArn", worker}}).Text("Policy/AttachmentCount"), "1");
  ExpectError(Call("DeletePolicy", {{"PolicyArn", local}}), 409, "DeleteConflict");

  QueryResult conflict = Call("DeleteRole", {{"RoleName", "node"}});
  ExpectError(conflict, 409, "DeleteConflict");
  EXPECT_EQ(conflict.message, "Cannot delete entity, must detach all policies first.");
  for (const std::string& arn : {worker, csi, local}) {
    ASSERT_TRUE(Call("DetachRolePolicy", {{"RoleName", "node"}, {"PolicyArn", arn}}).ok()) << arn;
  }
  ExpectError(Call("DetachRolePolicy", {{"RoleName", "node"}, {"PolicyArn", worker}}), 404, "NoSuchEntity");
  EXPECT_TRUE(Call("DeletePolicy", {{"PolicyArn", local}}).ok());
  EXPECT_TRUE(Call("DeleteRole", {{"RoleName", "node"}}).ok());
}

TEST_F(IamServiceTest, ARoleTakesAtMostTenManagedPolicies) {
  ASSERT_TRUE(CreateRole("r").ok());
  for (int i = 0; i < 10; ++i) {
    std::string arn = CreatePolicy("p" + std::to_string(i));
    ASSERT_TRUE(Call("AttachRolePolicy", {{"RoleName", "r"}, {"PolicyArn", arn}}).ok());
  }
  ExpectError(Call("AttachRolePolicy", {{"RoleName", "r"}, {"PolicyArn", "arn:aws:iam::aws:policy/AdministratorAccess"}}),
              409, "LimitExceeded");
}

// --- OIDC providers ----------------------------------------------------------------------

TEST_F(IamServiceTest, OpenIDConnectProviderLifecycle) {
  const std::string url = "https://oidc.eks.us-east-1.amazonaws.com/id/ABC123";
  const std::string print = "9e99a48a9960b14926bb7f3b02e22da2b0ab7280";
  QueryResult created = Call("CreateOpenIDConnectProvider", {{"Url", url},
                                                             {"ClientIDList.member.1", "sts.amazonaws.com"},
                                                             {"ThumbprintList.member.1", print},
                                                             {"Tags.member.1.Key", "cluster"},
                                                             {"Tags.member.1.Value", "demo"}});
  ASSERT_TRUE(created.ok()) << created.message;
  std::string arn = created.Text("OpenIDConnectProviderArn");
  EXPECT_EQ(arn, "arn:aws:iam::111122223333:oidc-provider/oidc.eks.us-east-1.amazonaws.com/id/ABC123");
  EXPECT_EQ(created.Text("Tags/member/Key"), "cluster");
  ExpectError(Call("CreateOpenIDConnectProvider", {{"Url", url}}), 409, "EntityAlreadyExists");

  QueryResult got = Call("GetOpenIDConnectProvider", {{"OpenIDConnectProviderArn", arn}});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got.Text("Url"), "oidc.eks.us-east-1.amazonaws.com/id/ABC123");  // without scheme
  EXPECT_EQ(Members(got.result().child("ClientIDList"), nullptr), std::vector<std::string>{"sts.amazonaws.com"});
  EXPECT_EQ(Members(got.result().child("ThumbprintList"), nullptr), std::vector<std::string>{print});
  EXPECT_FALSE(got.Text("CreateDate").empty());
  EXPECT_EQ(got.Text("Tags/member/Value"), "demo");

  ASSERT_TRUE(Call("AddClientIDToOpenIDConnectProvider", {{"OpenIDConnectProviderArn", arn}, {"ClientID", "web"}}).ok());
  ASSERT_TRUE(Call("AddClientIDToOpenIDConnectProvider", {{"OpenIDConnectProviderArn", arn}, {"ClientID", "web"}}).ok());
  ASSERT_TRUE(Call("RemoveClientIDFromOpenIDConnectProvider", {{"OpenIDConnectProviderArn", arn}, {"ClientID", "sts.amazonaws.com"}}).ok());
  ASSERT_TRUE(Call("RemoveClientIDFromOpenIDConnectProvider", {{"OpenIDConnectProviderArn", arn}, {"ClientID", "absent"}}).ok());
  const std::string print2 = "a031c46782e6e6c662c2c87c76da9aa62ccabd8e";
  ASSERT_TRUE(Call("UpdateOpenIDConnectProviderThumbprint", {{"OpenIDConnectProviderArn", arn}, {"ThumbprintList.member.1", print2}}).ok());
  ASSERT_TRUE(Call("TagOpenIDConnectProvider", {{"OpenIDConnectProviderArn", arn}, {"Tags.member.1.Key", "x"}, {"Tags.member.1.Value", "y"}}).ok());
  ASSERT_TRUE(Call("UntagOpenIDConnectProvider", {{"OpenIDConnectProviderArn", arn}, {"TagKeys.member.1", "cluster"}}).ok());
  got = Call("GetOpenIDConnectProvider", {{"OpenIDConnectProviderArn", arn}});
  EXPECT_EQ(Members(got.result().child("ClientIDList"), nullptr), std::vector<std::string>{"web"});
  EXPECT_EQ(Members(got.result().child("ThumbprintList"), nullptr), std::vector<std::string>{print2});
  QueryResult tags = Call("ListOpenIDConnectProviderTags", {{"OpenIDConnectProviderArn", arn}});
  EXPECT_EQ(Members(tags.result().child("Tags"), "Key"), std::vector<std::string>{"x"});

  QueryResult listed = Call("ListOpenIDConnectProviders");
  EXPECT_EQ(Members(listed.result().child("OpenIDConnectProviderList"), "Arn"), std::vector<std::string>{arn});
  ASSERT_TRUE(Call("DeleteOpenIDConnectProvider", {{"OpenIDConnectProviderArn", arn}}).ok());
  QueryResult gone = Call("GetOpenIDConnectProvider", {{"OpenIDConnectProviderArn", arn}});
  ExpectError(gone, 404, "NoSuchEntity");
  EXPECT_NE(gone.message.find(arn), std::string::npos);
}

TEST_F(IamServiceTest, OpenIDConnectProviderValidation) {
  ExpectError(Call("CreateOpenIDConnectProvider", {{"Url", "http://insecure.example.com"}}), 400, "InvalidInput");
  ExpectError(Call("CreateOpenIDConnectProvider", {}), 400, "ValidationError");
  ExpectError(Call("CreateOpenIDConnectProvider", {{"Url", "https://x.example.com"}, {"ThumbprintList.member.1", "abc"}}),
              400, "ValidationError");
  // Thumbprints are optional nowadays.
  EXPECT_TRUE(Call("CreateOpenIDConnectProvider", {{"Url", "https://x.example.com"}}).ok());
}

// --- instance profiles -------------------------------------------------------------------

TEST_F(IamServiceTest, InstanceProfileLifecycle) {
  ASSERT_TRUE(CreateRole("node").ok());
  ASSERT_TRUE(CreateRole("other").ok());
  QueryResult created = Call("CreateInstanceProfile", {{"InstanceProfileName", "node-profile"}, {"Path", "/eks/"},
                                                       {"Tags.member.1.Key", "a"}, {"Tags.member.1.Value", "b"}});
  ASSERT_TRUE(created.ok()) << created.message;
  EXPECT_EQ(created.Text("InstanceProfile/Arn"), "arn:aws:iam::111122223333:instance-profile/eks/node-profile");
  EXPECT_EQ(created.Text("InstanceProfile/InstanceProfileId").substr(0, 4), "AIPA");
  EXPECT_TRUE(created.result().child("InstanceProfile").child("Roles"));
  ExpectError(Call("CreateInstanceProfile", {{"InstanceProfileName", "node-profile"}}), 409, "EntityAlreadyExists");

  ASSERT_TRUE(Call("AddRoleToInstanceProfile", {{"InstanceProfileName", "node-profile"}, {"RoleName", "node"}}).ok());
  ExpectError(Call("AddRoleToInstanceProfile", {{"InstanceProfileName", "node-profile"}, {"RoleName", "other"}}), 409,
              "LimitExceeded");
  ExpectError(Call("AddRoleToInstanceProfile", {{"InstanceProfileName", "node-profile"}, {"RoleName", "ghost"}}), 404,
              "NoSuchEntity");

  QueryResult got = Call("GetInstanceProfile", {{"InstanceProfileName", "node-profile"}});
  ASSERT_TRUE(got.ok());
  pugi::xml_node role = got.result().child("InstanceProfile").child("Roles").child("member");
  EXPECT_STREQ(role.child_value("RoleName"), "node");
  EXPECT_STREQ(role.child_value("Arn"), "arn:aws:iam::111122223333:role/node");
  EXPECT_EQ(aws::UriDecode(role.child_value("AssumeRolePolicyDocument")), kTrust);

  QueryResult for_role = Call("ListInstanceProfilesForRole", {{"RoleName", "node"}});
  EXPECT_EQ(Members(for_role.result().child("InstanceProfiles"), "InstanceProfileName"),
            std::vector<std::string>{"node-profile"});
  EXPECT_TRUE(Members(Call("ListInstanceProfilesForRole", {{"RoleName", "other"}}).result().child("InstanceProfiles"),
                      "InstanceProfileName").empty());

  QueryResult role_conflict = Call("DeleteRole", {{"RoleName", "node"}});
  ExpectError(role_conflict, 409, "DeleteConflict");
  EXPECT_EQ(role_conflict.message, "Cannot delete entity, must remove roles from instance profile first.");
  ExpectError(Call("DeleteInstanceProfile", {{"InstanceProfileName", "node-profile"}}), 409, "DeleteConflict");

  ASSERT_TRUE(Call("TagInstanceProfile", {{"InstanceProfileName", "node-profile"}, {"Tags.member.1.Key", "c"}, {"Tags.member.1.Value", "d"}}).ok());
  ASSERT_TRUE(Call("UntagInstanceProfile", {{"InstanceProfileName", "node-profile"}, {"TagKeys.member.1", "a"}}).ok());
  EXPECT_EQ(Members(Call("ListInstanceProfileTags", {{"InstanceProfileName", "node-profile"}}).result().child("Tags"), "Key"),
            std::vector<std::string>{"c"});

  ExpectError(Call("RemoveRoleFromInstanceProfile", {{"InstanceProfileName", "node-profile"}, {"RoleName", "other"}}),
              404, "NoSuchEntity");
  ASSERT_TRUE(Call("RemoveRoleFromInstanceProfile", {{"InstanceProfileName", "node-profile"}, {"RoleName", "node"}}).ok());
  EXPECT_TRUE(Call("DeleteInstanceProfile", {{"InstanceProfileName", "node-profile"}}).ok());
  ExpectError(Call("GetInstanceProfile", {{"InstanceProfileName", "node-profile"}}), 404, "NoSuchEntity");
  EXPECT_TRUE(Call("DeleteRole", {{"RoleName", "node"}}).ok());
}

// --- protocol ----------------------------------------------------------------------------

TEST_F(IamServiceTest, UnknownActionIsInvalidAction) {
  ExpectError(Call("FlyToTheMoon"), 400, "InvalidAction");
}

TEST_F(IamServiceTest, RefusedCallsLeaveNoTrace) {
  // An attach that fails on the policy must not have half-changed the role.
  ASSERT_TRUE(CreateRole("r").ok());
  ExpectError(Call("AttachRolePolicy", {{"RoleName", "r"}, {"PolicyArn", "arn:aws:iam::111122223333:policy/x"}}), 404,
              "NoSuchEntity");
  EXPECT_TRUE(Call("DeleteRole", {{"RoleName", "r"}}).ok());
}

}  // namespace
}  // namespace strata::sandbox
