// DescribeImages: the EKS-optimized AMIs AWS publishes in every region (sandbox/eks_amis.h),
// owned by 602401143452 with the owner alias "amazon", as data sources and launch templates
// look them up (owners, name wildcards, architecture). The account has no images of its own
// here: Owner "self" finds none.

#include <algorithm>

#include "sandbox/eks_amis.h"
#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/ec2/ec2_actions.h"
#include "sandbox/services/ec2/ec2_filters.h"

namespace strata::sandbox {
namespace {

const Ec2Kind kImageKind = {"ec2.image", "ami", "image", "InvalidAMIID.NotFound", "The image id '[{}]' does not exist"};

Json ImageObject(const EksOptimizedAmi& ami) {
  return {{"id", ami.id},
          {"name", ami.name},
          {"description", ami.description},
          {"architecture", ami.architecture},
          {"created", ami.created}};
}

bool OwnedBy(const std::vector<std::string>& owners) {
  if (owners.empty()) return true;
  return std::any_of(owners.begin(), owners.end(),
                     [](const std::string& owner) { return owner == "amazon" || owner == kEksAmiOwner; });
}

void WriteImage(pugi::xml_node set, const Json& image) {
  pugi::xml_node item = AddItem(set);
  std::string name = image["name"].get<std::string>();
  AddText(item, "imageId", image["id"]);
  AddText(item, "imageLocation", std::string(kEksAmiOwner) + "/" + name);
  AddText(item, "imageState", "available");
  AddText(item, "imageOwnerId", kEksAmiOwner);
  AddText(item, "creationDate", image["created"]);
  AddBool(item, "isPublic", true);
  AddText(item, "architecture", image["architecture"]);
  AddText(item, "imageType", "machine");
  AddText(item, "name", name);
  AddText(item, "description", image["description"]);
  AddText(item, "imageOwnerAlias", "amazon");
  AddText(item, "rootDeviceType", "ebs");
  AddText(item, "rootDeviceName", "/dev/xvda");
  pugi::xml_node mapping = AddItem(AddChild(item, "blockDeviceMapping"));
  AddText(mapping, "deviceName", "/dev/xvda");
  pugi::xml_node ebs = AddChild(mapping, "ebs");
  AddText(ebs, "snapshotId", "snap-" + image["id"].get<std::string>().substr(4));
  AddText(ebs, "volumeSize", "20");
  AddBool(ebs, "deleteOnTermination", true);
  AddText(ebs, "volumeType", "gp3");
  AddBool(ebs, "encrypted", false);
  AddText(item, "virtualizationType", "hvm");
  AddText(item, "hypervisor", "xen");
  AddBool(item, "enaSupport", true);
  AddText(item, "platformDetails", "Linux/UNIX");
  AddText(item, "usageOperation", "RunInstances");
}

void DescribeImages(Ec2Call& call, pugi::xml_node response) {
  std::vector<Json> images;
  if (OwnedBy(call.NumberedList("Owner"))) {
    for (const EksOptimizedAmi& ami : EksOptimizedAmis(call.region())) images.push_back(ImageObject(ami));
  }
  auto fields = [](const Json& image, const std::string& name) -> std::optional<std::vector<std::string>> {
    if (name == "name") return std::vector<std::string>{image["name"]};
    if (name == "image-id") return std::vector<std::string>{image["id"]};
    if (name == "architecture") return std::vector<std::string>{image["architecture"]};
    if (name == "description") return std::vector<std::string>{image["description"]};
    if (name == "owner-id") return std::vector<std::string>{kEksAmiOwner};
    if (name == "owner-alias") return std::vector<std::string>{"amazon"};
    if (name == "state") return std::vector<std::string>{"available"};
    if (name == "is-public") return std::vector<std::string>{"true"};
    if (name == "image-type") return std::vector<std::string>{"machine"};
    if (name == "root-device-type") return std::vector<std::string>{"ebs"};
    if (name == "virtualization-type") return std::vector<std::string>{"hvm"};
    if (name == "platform-details") return std::vector<std::string>{"Linux/UNIX"};
    return std::nullopt;
  };
  pugi::xml_node set = AddChild(response, "imagesSet");
  for (const Json& image : SelectObjects(call, kImageKind, images, "ImageId", fields)) WriteImage(set, image);
}

}  // namespace

void AddImageActions(Ec2Actions& actions) { actions["DescribeImages"] = DescribeImages; }

}  // namespace strata::sandbox
