#include "sandbox/services/iam/iam_managed_catalogue.h"

#include <algorithm>

namespace strata::sandbox::iam {
namespace {

struct CatalogueEntry {
  const char* name;
  const char* path;
  const char* id;
  const char* create_date;
  const char* description;
  const char* document;
};

// Abridged from the policies AWS publishes; the statements keep their intent (what EKS,
// its nodes and add-ons need), not every action.
const CatalogueEntry kCatalogue[] = {
    {"AdministratorAccess", "/", "ANPAIWMBCKSKIEE64ZLYK", "2015-02-06T18:39:46Z",
     "Provides full access to AWS services and resources.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]})"},
    {"AmazonEBSCSIDriverPolicy", "/service-role/", "ANPAZKAPJZG4JZHRHS7CQ", "2022-04-04T17:24:29Z",
     "IAM Policy that allows the CSI driver service account to make calls to related services "
     "such as EC2 on your behalf.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["ec2:CreateSnapshot","ec2:AttachVolume","ec2:DetachVolume","ec2:ModifyVolume","ec2:DescribeAvailabilityZones","ec2:DescribeInstances","ec2:DescribeSnapshots","ec2:DescribeTags","ec2:DescribeVolumes","ec2:DescribeVolumesModifications"],"Resource":"*"},{"Effect":"Allow","Action":["ec2:CreateTags"],"Resource":["arn:aws:ec2:*:*:volume/*","arn:aws:ec2:*:*:snapshot/*"],"Condition":{"StringEquals":{"ec2:CreateAction":["CreateVolume","CreateSnapshot"]}}},{"Effect":"Allow","Action":["ec2:CreateVolume"],"Resource":"arn:aws:ec2:*:*:volume/*","Condition":{"StringLike":{"aws:RequestTag/ebs.csi.aws.com/cluster":"true"}}},{"Effect":"Allow","Action":["ec2:DeleteVolume"],"Resource":"*","Condition":{"StringLike":{"ec2:ResourceTag/ebs.csi.aws.com/cluster":"true"}}},{"Effect":"Allow","Action":["ec2:DeleteSnapshot"],"Resource":"*","Condition":{"StringLike":{"ec2:ResourceTag/CSIVolumeSnapshotName":"*"}}}]})"},
    {"AmazonEC2ContainerRegistryReadOnly", "/", "ANPAIFYZPA37OOHVIH7KQ", "2015-12-21T17:04:39Z",
     "Provides read-only access to Amazon EC2 Container Registry repositories.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["ecr:GetAuthorizationToken","ecr:BatchCheckLayerAvailability","ecr:GetDownloadUrlForLayer","ecr:GetRepositoryPolicy","ecr:DescribeRepositories","ecr:ListImages","ecr:DescribeImages","ecr:BatchGetImage","ecr:GetLifecyclePolicy","ecr:GetLifecyclePolicyPreview","ecr:ListTagsForResource","ecr:DescribeImageScanFindings"],"Resource":"*"}]})"},
    {"AmazonEKSClusterPolicy", "/", "ANPAIBTLDQMIGYFMJBQ7Q", "2018-05-27T21:06:14Z",
     "This policy provides Kubernetes the permissions it requires to manage resources on your "
     "behalf. Kubernetes requires Ec2:CreateTags permissions to place identifying information "
     "on EC2 resources including but not limited to Instances, Security Groups, and Elastic "
     "Network Interfaces.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["autoscaling:DescribeAutoScalingGroups","autoscaling:UpdateAutoScalingGroup","ec2:AttachVolume","ec2:AuthorizeSecurityGroupIngress","ec2:CreateRoute","ec2:CreateSecurityGroup","ec2:CreateTags","ec2:CreateVolume","ec2:DeleteRoute","ec2:DeleteSecurityGroup","ec2:DeleteVolume","ec2:DescribeInstances","ec2:DescribeRouteTables","ec2:DescribeSecurityGroups","ec2:DescribeSubnets","ec2:DescribeVolumes","ec2:DescribeVolumesModifications","ec2:DescribeVpcs","ec2:DescribeDhcpOptions","ec2:DescribeNetworkInterfaces","ec2:DescribeAvailabilityZones","ec2:DetachVolume","ec2:ModifyInstanceAttribute","ec2:ModifyVolume","ec2:RevokeSecurityGroupIngress","ec2:DescribeAccountAttributes","ec2:DescribeAddresses","ec2:DescribeInternetGateways","elasticloadbalancing:*","iam:CreateServiceLinkedRole","kms:DescribeKey"],"Resource":"*"}]})"},
    {"AmazonEKSServicePolicy", "/", "ANPAJBJ7YHQNV3BTPUIIN", "2018-05-27T21:08:21Z",
     "This policy allows Amazon Elastic Container Service for Kubernetes to create and manage "
     "the necessary resources to operate EKS Clusters.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["ec2:CreateNetworkInterface","ec2:CreateNetworkInterfacePermission","ec2:DeleteNetworkInterface","ec2:DescribeInstances","ec2:DescribeNetworkInterfaces","ec2:DetachNetworkInterface","ec2:ModifyNetworkInterfaceAttribute","ec2:DescribeSecurityGroups","ec2:DescribeSubnets","ec2:DescribeVpcs","iam:ListAttachedRolePolicies"],"Resource":"*"},{"Effect":"Allow","Action":"ec2:CreateTags","Resource":"arn:aws:ec2:*:*:network-interface/*"},{"Effect":"Allow","Action":"iam:CreateServiceLinkedRole","Resource":"*","Condition":{"StringLike":{"iam:AWSServiceName":"elasticloadbalancing.amazonaws.com"}}}]})"},
    {"AmazonEKSVPCResourceController", "/", "ANPAZKAPJZG4D5M6NPGQN", "2020-08-12T00:55:45Z",
     "Policy used by VPC Resource Controller to manage ENI and IPs for worker nodes.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"ec2:CreateNetworkInterfacePermission","Resource":"*","Condition":{"ForAnyValue:StringEquals":{"ec2:ResourceTag/eks:eni:owner":"eks-vpc-resource-controller"}}},{"Effect":"Allow","Action":["ec2:CreateNetworkInterface","ec2:DetachNetworkInterface","ec2:ModifyNetworkInterfaceAttribute","ec2:DeleteNetworkInterface","ec2:AttachNetworkInterface","ec2:UnassignPrivateIpAddresses","ec2:AssignPrivateIpAddresses"],"Resource":"*"}]})"},
    {"AmazonEKSWorkerNodePolicy", "/", "ANPAIBVMOY52IPQ6HD3PO", "2018-05-27T21:09:01Z",
     "This policy allows Amazon EKS worker nodes to connect to Amazon EKS Clusters.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["ec2:DescribeInstances","ec2:DescribeInstanceTypes","ec2:DescribeRouteTables","ec2:DescribeSecurityGroups","ec2:DescribeSubnets","ec2:DescribeVolumes","ec2:DescribeVolumesModifications","ec2:DescribeVpcs","eks:DescribeCluster","eks-auth:AssumeRoleForPodIdentity"],"Resource":"*"}]})"},
    {"AmazonEKS_CNI_Policy", "/", "ANPAJWLAS474LDBXNNTM4", "2018-05-27T21:07:42Z",
     "This policy provides the Amazon VPC CNI Plugin (amazon-vpc-cni-k8s) the permissions it "
     "requires to modify the IP address configuration on your EKS worker nodes.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["ec2:AssignPrivateIpAddresses","ec2:AttachNetworkInterface","ec2:CreateNetworkInterface","ec2:DeleteNetworkInterface","ec2:DescribeInstances","ec2:DescribeTags","ec2:DescribeNetworkInterfaces","ec2:DescribeInstanceTypes","ec2:DescribeSubnets","ec2:DetachNetworkInterface","ec2:ModifyNetworkInterfaceAttribute","ec2:UnassignPrivateIpAddresses"],"Resource":"*"},{"Effect":"Allow","Action":["ec2:CreateTags"],"Resource":["arn:aws:ec2:*:*:network-interface/*"]}]})"},
    {"AmazonS3ReadOnlyAccess", "/", "ANPAIZTJ4DXE7G6AGAE6M", "2015-02-06T18:40:59Z",
     "Provides read only access to all buckets via the AWS Management Console.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:Get*","s3:List*","s3:Describe*","s3-object-lambda:Get*","s3-object-lambda:List*"],"Resource":"*"}]})"},
    {"AmazonSSMManagedInstanceCore", "/", "ANPAIXSHM2BNB2D3AXXRU", "2019-03-15T17:22:12Z",
     "The policy for Amazon EC2 Role to enable AWS Systems Manager service core functionality.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["ssm:DescribeAssociation","ssm:GetDeployablePatchSnapshotForInstance","ssm:GetDocument","ssm:DescribeDocument","ssm:GetManifest","ssm:GetParameter","ssm:GetParameters","ssm:ListAssociations","ssm:ListInstanceAssociations","ssm:PutInventory","ssm:PutComplianceItems","ssm:PutConfigurePackageResult","ssm:UpdateAssociationStatus","ssm:UpdateInstanceAssociationStatus","ssm:UpdateInstanceInformation"],"Resource":"*"},{"Effect":"Allow","Action":["ssmmessages:CreateControlChannel","ssmmessages:CreateDataChannel","ssmmessages:OpenControlChannel","ssmmessages:OpenDataChannel"],"Resource":"*"},{"Effect":"Allow","Action":["ec2messages:AcknowledgeMessage","ec2messages:DeleteMessage","ec2messages:FailMessage","ec2messages:GetEndpoint","ec2messages:GetMessages","ec2messages:SendReply"],"Resource":"*"}]})"},
    {"CloudWatchAgentServerPolicy", "/", "ANPAIGOPKN7KRDAKTLG4I", "2017-08-31T00:14:55Z",
     "Permissions required to use AmazonCloudWatchAgent on servers",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["cloudwatch:PutMetricData","ec2:DescribeVolumes","ec2:DescribeTags","logs:PutLogEvents","logs:DescribeLogStreams","logs:DescribeLogGroups","logs:CreateLogStream","logs:CreateLogGroup"],"Resource":"*"},{"Effect":"Allow","Action":["ssm:GetParameter"],"Resource":"arn:aws:ssm:*:*:parameter/AmazonCloudWatch-*"}]})"},
    {"ReadOnlyAccess", "/", "ANPAILL3HVNFSB6DCOWYQ", "2015-02-06T18:39:48Z",
     "Provides read-only access to AWS services and resources.",
     R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["ec2:Describe*","eks:Describe*","eks:List*","iam:Get*","iam:List*","s3:Get*","s3:List*","sts:GetCallerIdentity"],"Resource":"*"}]})"},
};

Json ToStoredPolicy(const CatalogueEntry& e) {
  std::string arn = std::string(kAwsManagedArnPrefix) + (e.path + 1) + e.name;
  return {{"PolicyName", e.name},
          {"PolicyId", e.id},
          {"Arn", arn},
          {"Path", e.path},
          {"Description", e.description},
          {"CreateDate", e.create_date},
          {"UpdateDate", e.create_date},
          {"DefaultVersionId", "v1"},
          {"Tags", Json::array()},
          {"Versions", Json::array({{{"VersionId", "v1"},
                                     {"Document", Json::parse(e.document).dump(4)},
                                     {"CreateDate", e.create_date}}})},
          {"NextVersion", 2},
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
    for (const CatalogueEntry& e : kCatalogue) out.push_back(ToStoredPolicy(e));
    std::sort(out.begin(), out.end(), [](const Json& a, const Json& b) {
      return a["PolicyName"].get<std::string>() < b["PolicyName"].get<std::string>();
    });
    return out;
  }();
  return policies;
}

std::optional<Json> FindAwsManagedPolicy(const std::string& arn) {
  for (const Json& p : AwsManagedPolicies()) {
    if (p["Arn"] == arn) return p;
  }
  return std::nullopt;
}

}  // namespace strata::sandbox::iam
