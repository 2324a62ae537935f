// aws_efs_access_point: an application entry point to an EFS file system, over
// CreateAccessPoint / DescribeAccessPoints / TagResource / UntagResource /
// DeleteAccessPoint, with Terraform's attribute names. The id is the access point id
// ("fsap-…"), which also imports it.
//
// Create sends a ClientToken derived from the engine's idempotency token, so a create sent
// again after an interruption carries the same one; EFS refuses it with
// AccessPointAlreadyExists, and the access point holding that token (DescribeAccessPoints
// reads it back) is this create's and is adopted. A create waits for "available"; tags
// change in place, everything else forces a new access point.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/efs/efs_api.h"
#include "providers/aws/services/efs/efs_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

json PosixUserJson(const Value& block) {
  json user = {{"Uid", GetNumber(block, "uid").value_or(0)}, {"Gid", GetNumber(block, "gid").value_or(0)}};
  Value secondary = Get(block, "secondary_gids");
  if (secondary.IsSequence() && !secondary.AsList().empty()) {
    user["SecondaryGids"] = json::array();
    for (const Value& gid : secondary.AsList()) {
      if (gid.IsNumber()) user["SecondaryGids"].push_back(gid.AsNumber());
    }
  }
  return user;
}

json RootDirectoryJson(const Value& block) {
  json root = json::object();
  if (Get(block, "path").IsString()) root["Path"] = GetString(block, "path");
  Value info = FirstBlock(block, "creation_info");
  if (!info.IsNull()) {
    root["CreationInfo"] = {{"OwnerUid", GetNumber(info, "owner_uid").value_or(0)},
                            {"OwnerGid", GetNumber(info, "owner_gid").value_or(0)},
                            {"Permissions", GetString(info, "permissions")}};
  }
  return root;
}

Value EfsNumberList(const json& j, const char* key) {
  ValueList out;
  for (const json& n : j.value(key, json::array())) {
    if (n.is_number()) out.push_back(Value::Number(n.get<double>()));
  }
  return Value::Set(std::move(out));
}

class AwsEfsAccessPoint final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema(
        "aws_efs_access_point",
        {{"file_system_id", Required("string", true)},
         {"posix_user", Optional("list(object({gid=number, uid=number, secondary_gids=optional(set(number))}))", true)},
         {"root_directory",
          OptionalComputed("list(object({path=optional(string), creation_info=optional(list(object({owner_gid=number, "
                           "owner_uid=number, permissions=string})))}))",
                           true)},
         {"tags", Optional("map(string)")},
         {"tags_all", Computed("map(string)")},
         {"arn", Computed("string")},
         {"file_system_arn", Computed("string")},
         {"owner_id", Computed("string")}});
  }

  //! The ClientToken (see the top): a recovery sends the same one again.
  CreateRecovery Recovery() const override { return CreateRecovery::ClientToken; }
  std::vector<std::string> RecoveryKey() const override { return {"file_system_id"}; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string fs_id = GetString(planned, "file_system_id");
    std::string token = UniqueName("strata-", ctx);
    json body = {{"ClientToken", token}, {"FileSystemId", fs_id}};
    Value user = FirstBlock(planned, "posix_user");
    if (!user.IsNull()) body["PosixUser"] = PosixUserJson(user);
    Value root = FirstBlock(planned, "root_directory");
    if (!root.IsNull()) body["RootDirectory"] = RootDirectoryJson(root);
    TagMap tags = WantedTags(planned);
    if (!tags.empty()) body["Tags"] = EfsTagList(tags);
    RestJsonRequest call;
    call.method = "POST";
    call.path = EfsPath("access-points");
    call.body = body;
    Result<json> created = CallEfs(*session_, ctx, "CreateAccessPoint", call);
    std::string id;
    if (created.ok()) {
      id = JsonString(*created, "AccessPointId");
    } else if (created.error().code == "AccessPointAlreadyExists") {
      Result<std::optional<json>> found = FindByToken(ctx, fs_id, token);
      if (!found.ok()) return CreateFailed("DescribeAccessPoints", found.error());
      if (!found->has_value()) return CreateFailed("CreateAccessPoint", created.error());
      id = JsonString(**found, "AccessPointId");
    } else {
      return CreateFailed("CreateAccessPoint", created.error());
    }
    Diagnostics diags = WaitForEfsState(*session_, ctx, "EFS access point " + id, "available", [&] { return Describe(ctx, id); });
    return ReadAfterWrite(ctx, planned, id, diags);
  }

  //! The access point holding this create's ClientToken, if any.
  ReadResult FindInterrupted(const OperationContext& ctx, const Value& planned) override {
    Result<std::optional<json>> found = FindByToken(ctx, GetString(planned, "file_system_id"), UniqueName("strata-", ctx));
    if (!found.ok()) return {Value(), false, AwsErrorDiag("DescribeAccessPoints", found.error())};
    if (!found->has_value()) return {Value(), true, {}};
    return Read(ctx, With(planned, "id", Value::String(JsonString(**found, "AccessPointId"))));
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    std::string id = GetString(prior, "id");
    Result<std::optional<json>> got = Describe(ctx, id);
    if (!got.ok()) return {Value(), false, AwsErrorDiag("DescribeAccessPoints", got.error())};
    if (!got->has_value() || JsonString(**got, "LifeCycleState") == "deleted") return {Value(), true, {}};
    const json& ap = **got;
    Value posix_user;
    if (ap.contains("PosixUser") && ap["PosixUser"].is_object()) {
      const json& u = ap["PosixUser"];
      Value secondary = EfsNumberList(u, "SecondaryGids");
      posix_user = Value::List({Value::Object({{"uid", Value::Number(u.value("Uid", 0.0))},
                                               {"gid", Value::Number(u.value("Gid", 0.0))},
                                               {"secondary_gids", secondary.AsList().empty() ? Value() : secondary}})});
    }
    const json root = ap.value("RootDirectory", json::object());
    Value creation_info;
    if (root.contains("CreationInfo") && root["CreationInfo"].is_object()) {
      const json& info = root["CreationInfo"];
      creation_info = Value::List({Value::Object({{"owner_uid", Value::Number(info.value("OwnerUid", 0.0))},
                                                  {"owner_gid", Value::Number(info.value("OwnerGid", 0.0))},
                                                  {"permissions", Value::String(JsonString(info, "Permissions"))}})});
    }
    std::string fs_id = JsonString(ap, "FileSystemId");
    TagMap remote = EfsTags(ap);
    return {Value::Object({
                {"id", Value::String(id)},
                {"file_system_id", Value::String(fs_id)},
                {"posix_user", posix_user},
                {"root_directory", Value::List({Value::Object({{"path", Value::String(JsonString(root, "Path"))},
                                                               {"creation_info", creation_info}})})},
                {"tags", TagsForState(remote, session_->default_tags, Get(prior, "tags"))},
                {"tags_all", TagsValue(remote)},
                {"arn", Value::String(JsonString(ap, "AccessPointArn"))},
                {"file_system_arn",
                 Value::String(MakeArn("elasticfilesystem", session_->Region(), JsonString(ap, "OwnerId"), "file-system/" + fs_id))},
                {"owner_id", Value::String(JsonString(ap, "OwnerId"))},
            }),
            false,
            {}};
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string id = GetString(prior, "id");
    Diagnostics diags = UpdateEfsTags(*session_, ctx, id, GetStringMap(prior, "tags_all"), WantedTags(planned));
    return ReadAfterWrite(ctx, planned, id, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    std::string id = GetString(prior, "id");
    RestJsonRequest call;
    call.method = "DELETE";
    call.path = EfsPath("access-points", id);
    Result<json> deleted = CallEfs(*session_, ctx, "DeleteAccessPoint", call);
    if (!deleted.ok() && deleted.error().code != kEfsAccessPointNotFound) return {AwsErrorDiag("DeleteAccessPoint", deleted.error())};
    return {WaitForEfsState(*session_, ctx, "EFS access point " + id, "deleted", [&] { return Describe(ctx, id); })};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    if (id.rfind("fsap-", 0) != 0) {
      return {Value(), Error("Invalid import id", "An aws_efs_access_point is imported by its access point id (\"fsap-…\"), not \"" + id + "\".")};
    }
    return ImportById(ctx, id);
  }

 private:
  Result<std::optional<json>> Describe(const OperationContext& ctx, const std::string& id) const {
    return DescribeEfsObject(*session_, ctx, "DescribeAccessPoints", "access-points", "AccessPointId", id, "AccessPoints",
                             kEfsAccessPointNotFound);
  }

  Result<std::optional<json>> FindByToken(const OperationContext& ctx, const std::string& fs_id, const std::string& token) const {
    RestJsonRequest call;
    call.path = EfsPath("access-points");
    call.query.push_back({"FileSystemId", fs_id});
    for (;;) {
      Result<json> got = CallEfs(*session_, ctx, "DescribeAccessPoints", call);
      if (!got.ok()) {
        if (got.error().code == kEfsFileSystemNotFound) return std::optional<json>();
        return got.error();
      }
      for (const json& ap : got->value("AccessPoints", json::array())) {
        if (JsonString(ap, "ClientToken") == token) return std::optional<json>(ap);
      }
      std::string next = JsonString(*got, "NextToken");
      if (next.empty()) return std::optional<json>();
      call.query = {{"FileSystemId", fs_id}, {"NextToken", next}};
    }
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsEfsAccessPoint(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsEfsAccessPoint>(std::move(session));
}

}  // namespace strata::aws
