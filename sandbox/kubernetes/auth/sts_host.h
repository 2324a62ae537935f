#pragma once
// Which hosts a presigned STS URL in an EKS bearer token may name, as aws-iam-authenticator
// decides (pkg/token/token.go verifySTSHostnameFormat, pkg/endpoints/partitions.go): the
// global sts.amazonaws.com in the aws partition only, and sts.<region>.<domain> or
// sts-fips.<region>.<domain> where <domain> is the partition's STS domain or its dual-stack
// one (api.aws, …). The region label must look like a region; which regions exist is not
// checked (neither does the authenticator).

#include <optional>
#include <string>

namespace strata::sandbox::k8s_auth {

//! "aws", "aws-cn", "aws-us-gov", "aws-iso", "aws-iso-b", "aws-iso-e", "aws-iso-f",
//! "aws-eusc": the partition a region belongs to, by its prefix.
std::string PartitionOfRegion(const std::string& region);

//! The region a valid STS host of `partition` names ("us-east-1" for sts.amazonaws.com),
//! or nullopt with `why` set.
std::optional<std::string> StsHostRegion(const std::string& host, const std::string& partition, std::string* why);

}  // namespace strata::sandbox::k8s_auth
