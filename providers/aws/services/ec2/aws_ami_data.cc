// data "aws_ami": one machine image found by `owners`, `filter` blocks and `name_regex` (RE2:
// Go's syntax, as Terraform reads it) through DescribeImages, all pages, with Terraform's rules for several matches: an error unless
// `most_recent` is true, which takes the newest by creation date. The EKS-optimized AMIs are
// owned by "amazon" (602401143452) and named amazon-eks-[gpu-]node-<version>-v<date> or
// amazon-eks-node-al2023-<arch>-<flavour>-<version>-v<date>.

#include <algorithm>

#include <re2/re2.h>

#include "providers/aws/services/ec2/ec2_lookup.h"
#include "providers/aws/services/ec2/ec2_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

const std::vector<std::string> kImageElements = {
    "imageId",         "name",           "description",    "architecture",       "creationDate",
    "imageOwnerId",    "imageOwnerAlias", "imageLocation", "imageType",          "imageState",
    "rootDeviceName",  "rootDeviceType", "virtualizationType", "platformDetails", "enaSupport"};

class AwsAmiData final : public AwsDataSourceType {
 public:
  using AwsDataSourceType::AwsDataSourceType;

  ResourceSchema Schema() const override {
    ResourceSchema s = ManagedSchema("aws_ami", {{"owners", Optional("list(string)")},
                                                 {"most_recent", Optional("bool")},
                                                 {"name_regex", Optional("string")},
                                                 {"filter", Optional(kEc2FilterType)},
                                                 {"executable_users", Optional("list(string)")},
                                                 {"arn", Computed("string")},
                                                 {"image_id", Computed("string")},
                                                 {"name", Computed("string")},
                                                 {"description", Computed("string")},
                                                 {"architecture", Computed("string")},
                                                 {"creation_date", Computed("string")},
                                                 {"owner_id", Computed("string")},
                                                 {"image_owner_alias", Computed("string")},
                                                 {"image_location", Computed("string")},
                                                 {"image_type", Computed("string")},
                                                 {"state", Computed("string")},
                                                 {"root_device_name", Computed("string")},
                                                 {"root_device_type", Computed("string")},
                                                 {"virtualization_type", Computed("string")},
                                                 {"platform_details", Computed("string")},
                                                 {"ena_support", Computed("bool")}});
    s.mode = ResourceMode::Data;
    return s;
  }

  ReadResult Read(const OperationContext& ctx, const Value& config) override {
    QueryRequest call = Ec2Call("DescribeImages");
    int n = 0;
    for (const std::string& owner : GetStringList(config, "owners")) call.Add("Owner." + std::to_string(++n), owner);
    n = 0;
    for (const std::string& user : GetStringList(config, "executable_users")) {
      call.Add("ExecutableBy." + std::to_string(++n), user);
    }
    AddLookupFilters(call, config, {});
    Result<std::vector<LookupItem>> items = LookupItems(*session_, ctx, call, "imagesSet", kImageElements);
    if (!items.ok()) return {Value(), false, AwsErrorDiag("DescribeImages", items.error())};
    std::vector<LookupItem> matches = *items;
    if (Get(config, "name_regex").IsString()) {
      RE2 pattern(GetString(config, "name_regex"), RE2::Quiet);
      if (!pattern.ok()) {
        return {Value(), false, Error("Invalid name_regex", "data \"aws_ami\": name_regex is not a valid regular "
                                                            "expression (Go's syntax): " + pattern.error())};
      }
      std::erase_if(matches, [&](const LookupItem& item) { return !RE2::PartialMatch(item.at("name"), pattern); });
    }
    Diagnostics diags;
    if (matches.empty()) {
      diags.Error("No matching AMI", "data \"aws_ami\": your query returned no results. Change the owners, filters "
                                     "or name_regex (and check the region).");
      return {Value(), false, diags};
    }
    if (matches.size() > 1 && !GetBool(config, "most_recent", false)) {
      diags.Error("Several matching AMIs", "data \"aws_ami\": your query returned " + std::to_string(matches.size()) +
                                               " results. Use more specific criteria, or set most_recent = true.");
      return {Value(), false, diags};
    }
    const LookupItem& image = *std::max_element(matches.begin(), matches.end(), [](const LookupItem& a, const LookupItem& b) {
      return a.at("creationDate") < b.at("creationDate");
    });
    auto text = [&](const char* element) { return Value::String(image.at(element)); };
    return {Value::Object({{"id", text("imageId")},
                           {"owners", Get(config, "owners")},
                           {"most_recent", Get(config, "most_recent")},
                           {"name_regex", Get(config, "name_regex")},
                           {"filter", Get(config, "filter")},
                           {"executable_users", Get(config, "executable_users")},
                           {"arn", Value::String("arn:" + PartitionOf(session_->Region()) + ":ec2:" + session_->Region() +
                                                 "::image/" + image.at("imageId"))},
                           {"image_id", text("imageId")},
                           {"name", text("name")},
                           {"description", text("description")},
                           {"architecture", text("architecture")},
                           {"creation_date", text("creationDate")},
                           {"owner_id", text("imageOwnerId")},
                           {"image_owner_alias", text("imageOwnerAlias")},
                           {"image_location", text("imageLocation")},
                           {"image_type", text("imageType")},
                           {"state", text("imageState")},
                           {"root_device_name", text("rootDeviceName")},
                           {"root_device_type", text("rootDeviceType")},
                           {"virtualization_type", text("virtualizationType")},
                           {"platform_details", text("platformDetails")},
                           {"ena_support", Value::Bool(image.at("enaSupport") == "true")}}),
            false,
            {}};
  }
};

}  // namespace

std::unique_ptr<DataSourceType> NewAwsAmiData(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsAmiData>(std::move(session));
}

}  // namespace strata::aws
