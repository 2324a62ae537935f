#include "sandbox/services/iam/iam_managed_catalogue.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>

namespace strata::sandbox::iam {
namespace {

struct CatalogueEntry {
  const char* name;
  const char* path;
  const char* id;
  const char* description;
  const char* document;
};

// The policies whose statements the sandbox knows, abridged from the ones AWS publishes;
// the statements keep their intent (what EKS, its nodes and add-ons need), not every action.
const CatalogueEntry kCatalogue[] = {
    {"AdministratorAccess", "/", "ANPAIWMBCKSKIEE64ZLYK",
     "Provides full access to AWS services and resources.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]})"},
    {"AmazonEBSCSIDriverPolicy", "/service-role/", "ANPAZKAPJZG4JZHRHS7CQ",
     "IAM Policy that allows the CSI driver service account to make calls to related services "
     "such as EC2 on your behalf.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["ec2:CreateSnapshot","ec2:AttachVolume","ec2:DetachVolume","ec2:ModifyVolume","ec2:DescribeAvailabilityZones","ec2:DescribeInstances","ec2:DescribeSnapshots","ec2:DescribeTags","ec2:DescribeVolumes","ec2:DescribeVolumesModifications"],"Resource":"*"},{"Effect":"Allow","Action":["ec2:CreateTags"],"Resource":["arn:aws:ec2:*:*:volume/*","arn:aws:ec2:*:*:snapshot/*"],"Condition":{"StringEquals":{"ec2:CreateAction":["CreateVolume","CreateSnapshot"]}}},{"Effect":"Allow","Action":["ec2:CreateVolume"],"Resource":"arn:aws:ec2:*:*:volume/*","Condition":{"StringLike":{"aws:RequestTag/ebs.csi.aws.com/cluster":"true"}}},{"Effect":"Allow","Action":["ec2:DeleteVolume"],"Resource":"*","Condition":{"StringLike":{"ec2:ResourceTag/ebs.csi.aws.com/cluster":"true"}}},{"Effect":"Allow","Action":["ec2:DeleteSnapshot"],"Resource":"*","Condition":{"StringLike":{"ec2:ResourceTag/CSIVolumeSnapshotName":"*"}}}]})"},
    {"AmazonEC2ContainerRegistryReadOnly", "/", "ANPAIFYZPA37OOHVIH7KQ",
     "Provides read-only access to Amazon EC2 Container Registry repositories.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["ecr:GetAuthorizationToken","ecr:BatchCheckLayerAvailability","ecr:GetDownloadUrlForLayer","ecr:GetRepositoryPolicy","ecr:DescribeRepositories","ecr:ListImages","ecr:DescribeImages","ecr:BatchGetImage","ecr:GetLifecyclePolicy","ecr:GetLifecyclePolicyPreview","ecr:ListTagsForResource","ecr:DescribeImageScanFindings"],"Resource":"*"}]})"},
    {"AmazonEKSClusterPolicy", "/", "ANPAIBTLDQMIGYFMJBQ7Q",
     "This policy provides Kubernetes the permissions it requires to manage resources on your "
     "behalf. Kubernetes requires Ec2:CreateTags permissions to place identifying information "
     "on EC2 resources including but not limited to Instances, Security Groups, and Elastic "
     "Network Interfaces.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["autoscaling:DescribeAutoScalingGroups","autoscaling:UpdateAutoScalingGroup","ec2:AttachVolume","ec2:AuthorizeSecurityGroupIngress","ec2:CreateRoute","ec2:CreateSecurityGroup","ec2:CreateTags","ec2:CreateVolume","ec2:DeleteRoute","ec2:DeleteSecurityGroup","ec2:DeleteVolume","ec2:DescribeInstances","ec2:DescribeRouteTables","ec2:DescribeSecurityGroups","ec2:DescribeSubnets","ec2:DescribeVolumes","ec2:DescribeVolumesModifications","ec2:DescribeVpcs","ec2:DescribeDhcpOptions","ec2:DescribeNetworkInterfaces","ec2:DescribeAvailabilityZones","ec2:DetachVolume","ec2:ModifyInstanceAttribute","ec2:ModifyVolume","ec2:RevokeSecurityGroupIngress","ec2:DescribeAccountAttributes","ec2:DescribeAddresses","ec2:DescribeInternetGateways","elasticloadbalancing:*","iam:CreateServiceLinkedRole","kms:DescribeKey"],"Resource":"*"}]})"},
    {"AmazonEKSServicePolicy", "/", "ANPAJBJ7YHQNV3BTPUIIN",
     "This policy allows Amazon Elastic Container Service for Kubernetes to create and manage "
     "the necessary resources to operate EKS Clusters.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["ec2:CreateNetworkInterface","ec2:CreateNetworkInterfacePermission","ec2:DeleteNetworkInterface","ec2:DescribeInstances","ec2:DescribeNetworkInterfaces","ec2:DetachNetworkInterface","ec2:ModifyNetworkInterfaceAttribute","ec2:DescribeSecurityGroups","ec2:DescribeSubnets","ec2:DescribeVpcs","iam:ListAttachedRolePolicies"],"Resource":"*"},{"Effect":"Allow","Action":"ec2:CreateTags","Resource":"arn:aws:ec2:*:*:network-interface/*"},{"Effect":"Allow","Action":"iam:CreateServiceLinkedRole","Resource":"*","Condition":{"StringLike":{"iam:AWSServiceName":"elasticloadbalancing.amazonaws.com"}}}]})"},
    {"AmazonEKSVPCResourceController", "/", "ANPAZKAPJZG4D5M6NPGQN",
     "Policy used by VPC Resource Controller to manage ENI and IPs for worker nodes.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"ec2:CreateNetworkInterfacePermission","Resource":"*","Condition":{"ForAnyValue:StringEquals":{"ec2:ResourceTag/eks:eni:owner":"eks-vpc-resource-controller"}}},{"Effect":"Allow","Action":["ec2:CreateNetworkInterface","ec2:DetachNetworkInterface","ec2:ModifyNetworkInterfaceAttribute","ec2:DeleteNetworkInterface","ec2:AttachNetworkInterface","ec2:UnassignPrivateIpAddresses","ec2:AssignPrivateIpAddresses"],"Resource":"*"}]})"},
    {"AmazonEKSWorkerNodePolicy", "/", "ANPAIBVMOY52IPQ6HD3PO",
     "This policy allows Amazon EKS worker nodes to connect to Amazon EKS Clusters.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["ec2:DescribeInstances","ec2:DescribeInstanceTypes","ec2:DescribeRouteTables","ec2:DescribeSecurityGroups","ec2:DescribeSubnets","ec2:DescribeVolumes","ec2:DescribeVolumesModifications","ec2:DescribeVpcs","eks:DescribeCluster","eks-auth:AssumeRoleForPodIdentity"],"Resource":"*"}]})"},
    {"AmazonEKS_CNI_Policy", "/", "ANPAJWLAS474LDBXNNTM4",
     "This policy provides the Amazon VPC CNI Plugin (amazon-vpc-cni-k8s) the permissions it "
     "requires to modify the IP address configuration on your EKS worker nodes.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["ec2:AssignPrivateIpAddresses","ec2:AttachNetworkInterface","ec2:CreateNetworkInterface","ec2:DeleteNetworkInterface","ec2:DescribeInstances","ec2:DescribeTags","ec2:DescribeNetworkInterfaces","ec2:DescribeInstanceTypes","ec2:DescribeSubnets","ec2:DetachNetworkInterface","ec2:ModifyNetworkInterfaceAttribute","ec2:UnassignPrivateIpAddresses"],"Resource":"*"},{"Effect":"Allow","Action":["ec2:CreateTags"],"Resource":["arn:aws:ec2:*:*:network-interface/*"]}]})"},
    {"AmazonS3ReadOnlyAccess", "/", "ANPAIZTJ4DXE7G6AGAE6M",
     "Provides read only access to all buckets via the AWS Management Console.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:Get*","s3:List*","s3:Describe*","s3-object-lambda:Get*","s3-object-lambda:List*"],"Resource":"*"}]})"},
    {"AmazonSSMManagedInstanceCore", "/", "ANPAIXSHM2BNB2D3AXXRU",
     "The policy for Amazon EC2 Role to enable AWS Systems Manager service core functionality.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["ssm:DescribeAssociation","ssm:GetDeployablePatchSnapshotForInstance","ssm:GetDocument","ssm:DescribeDocument","ssm:GetManifest","ssm:GetParameter","ssm:GetParameters","ssm:ListAssociations","ssm:ListInstanceAssociations","ssm:PutInventory","ssm:PutComplianceItems","ssm:PutConfigurePackageResult","ssm:UpdateAssociationStatus","ssm:UpdateInstanceAssociationStatus","ssm:UpdateInstanceInformation"],"Resource":"*"},{"Effect":"Allow","Action":["ssmmessages:CreateControlChannel","ssmmessages:CreateDataChannel","ssmmessages:OpenControlChannel","ssmmessages:OpenDataChannel"],"Resource":"*"},{"Effect":"Allow","Action":["ec2messages:AcknowledgeMessage","ec2messages:DeleteMessage","ec2messages:FailMessage","ec2messages:GetEndpoint","ec2messages:GetMessages","ec2messages:SendReply"],"Resource":"*"}]})"},
    {"CloudWatchAgentServerPolicy", "/", "ANPAIGOPKN7KRDAKTLG4I",
     "Permissions required to use AmazonCloudWatchAgent on servers",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["cloudwatch:PutMetricData","ec2:DescribeVolumes","ec2:DescribeTags","logs:PutLogEvents","logs:DescribeLogStreams","logs:DescribeLogGroups","logs:CreateLogStream","logs:CreateLogGroup"],"Resource":"*"},{"Effect":"Allow","Action":["ssm:GetParameter"],"Resource":"arn:aws:ssm:*:*:parameter/AmazonCloudWatch-*"}]})"},
    {"ReadOnlyAccess", "/", "ANPAILL3HVNFSB6DCOWYQ",
     "Provides read-only access to AWS services and resources.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["ec2:Describe*","eks:Describe*","eks:List*","iam:Get*","iam:List*","s3:Get*","s3:List*","sts:GetCallerIdentity"],"Resource":"*"}]})"},
};

// One line of aws_managed_policy_list.inc.
struct ListedPolicy {
  const char* path;
  const char* name;
  const char* default_version;
  const char* create_date;
  const char* update_date;
};

const ListedPolicy kListed[] = {
#include "sandbox/services/iam/aws_managed_policy_list.inc"
};

const CatalogueEntry* AbridgedEntry(const std::string& name) {
  for (const CatalogueEntry& e : kCatalogue)
    if (name == e.name) return &e;
  return nullptr;
}

// A policy id of AWS's shape ("ANPA" and 17 upper-case letters and digits), stable per name,
// for the policies whose id the abridged table does not give.
std::string ManagedPolicyId(const std::string& name) {
  static const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
  std::string id = "ANPA";
  for (int i = 0; i < 17; ++i) {
    id += kAlphabet[h % 32];
    h = h / 32 + (h << 59) + static_cast<uint64_t>(i) * 2654435761ull;
  }
  return id;
}

Json ToStoredPolicy(const ListedPolicy& listed) {
  const CatalogueEntry* abridged = AbridgedEntry(listed.name);
  std::string arn = std::string(kAwsManagedArnPrefix) + (listed.path + 1) + listed.name;
  // Statements are known for the abridged policies only; the others answer with none.
  const char* document =
      abridged ? abridged->document : R"({"Version":"2012-10-17","Statement":[]})";
  std::string version = listed.default_version;
  return {{"PolicyName", listed.name},
          {"PolicyId", abridged ? std::string(abridged->id) : ManagedPolicyId(listed.name)},
          {"Arn", arn},
          {"Path", listed.path},
          {"Description", abridged ? abridged->description : ""},
          {"CreateDate", listed.create_date},
          {"UpdateDate", listed.update_date},
          {"DefaultVersionId", version},
          {"Tags", Json::array()},
          {"Versions", Json::array({{{"VersionId", version},
                                     {"Document", Json::parse(document).dump(4)},
                                     {"CreateDate", listed.update_date}}})},
          {"NextVersion", std::stoi(version.substr(1)) + 1},
          {"AwsManaged", true}};
}

}  // namespace

bool IsAwsManagedArn(const std::string& arn) {
  return arn.compare(0, std::char_traits<char>::length(kAwsManagedArnPrefix),
                     kAwsManagedArnPrefix) == 0;
}

const std::vector<Json>& AwsManagedPolicies() {
  static const std::vector<Json> policies = [] {
    std::vector<Json> out;
    out.reserve(std::size(kListed));
    for (const ListedPolicy& listed : kListed) out.push_back(ToStoredPolicy(listed));
    std::sort(out.begin(), out.end(), [](const Json& a, const Json& b) {
      return a["PolicyName"].get<std::string>() < b["PolicyName"].get<std::string>();
    });
    return out;
  }();
  return policies;
}

std::optional<Json> FindAwsManagedPolicy(const std::string& arn) {
  static const std::map<std::string, const Json*> by_arn = [] {
    std::map<std::string, const Json*> out;
    for (const Json& p : AwsManagedPolicies()) out.emplace(p["Arn"].get<std::string>(), &p);
    return out;
  }();
  auto it = by_arn.find(arn);
  if (it == by_arn.end()) return std::nullopt;
  return *it->second;
}

}  // namespace strata::sandbox::iam
