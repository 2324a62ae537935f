// local_file and local_sensitive_file (hashicorp/local): writes exactly one of `content`,
// `sensitive_content`, `content_base64` or `source` (a file to copy) to `filename` with
// `file_permission`, creating missing directories with `directory_permission` (both
// strings of 3 or 4 octal digits up to 0777; defaults "0777" for local_file and "0700" for
// local_sensitive_file). Every argument forces replacement. The id and the content_*
// checksums describe what was written.
//
// Permissions work as in Terraform, which creates files and directories with Go's
// os.WriteFile / os.MkdirAll: the process umask applies (with umask 022, "0777" gives 0755).
// Unlike Terraform, a file that already exists at `filename` also loses any bit the
// permission does not grant, so it is never left wider than asked.
//
// Refresh: a deleted file is gone (planned for creation again); an edited file is drift —
// the state takes the file's current content so the plan replaces it. A permission bit
// that file_permission does not grant is drift too (someone widened the file); a missing
// bit is not, since the umask takes bits away.
#include <cstdio>

#include "engine/base/base64.h"
#include "engine/base/hash.h"
#include "providers/builtin/resource_type.h"

namespace strata {
namespace {

using namespace attrs;
using base::Base64Encode;
using base::DigestAlgorithm;
using base::DigestHex;

// The digests both local_file types publish of a file's content.
Value WithContentDigests(Value v, const std::string& content) {
  v = With(v, "id", Value::String(DigestHex(DigestAlgorithm::kSha1, content)));
  v = With(v, "content_md5", Value::String(DigestHex(DigestAlgorithm::kMd5, content)));
  v = With(v, "content_sha1", Value::String(DigestHex(DigestAlgorithm::kSha1, content)));
  v = With(v, "content_sha256", Value::String(DigestHex(DigestAlgorithm::kSha256, content)));
  v = With(v, "content_sha512", Value::String(DigestHex(DigestAlgorithm::kSha512, content)));
  v = With(v, "content_base64sha256",
           Value::String(Base64Encode(base::Digest(DigestAlgorithm::kSha256, content))));
  v = With(v, "content_base64sha512",
           Value::String(Base64Encode(base::Digest(DigestAlgorithm::kSha512, content))));
  return v;
}

const char* kContentAttrs[] = {"content", "sensitive_content", "content_base64", "source"};

const char* kPermissionAttrs[] = {"file_permission", "directory_permission"};

// "0644" -> 0644. As hashicorp/local: 3 or 4 octal digits, at most 0777.
std::optional<unsigned> ParseMode(const std::string& text) {
  if (text.size() < 3 || text.size() > 4) return std::nullopt;
  unsigned mode = 0;
  for (char c : text) {
    if (c < '0' || c > '7') return std::nullopt;
    mode = mode * 8 + unsigned(c - '0');
  }
  if (mode > 0777) return std::nullopt;
  return mode;
}

std::string FormatMode(unsigned mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", mode & 07777);
  return text;
}

class LocalFile : public BuiltinResourceType {
 public:
  LocalFile(BuiltinEnv env, bool sensitive) : BuiltinResourceType(std::move(env)), sensitive_(sensitive) {}

  ResourceSchema Schema() const override {
    std::map<std::string, AttributeSchema> attrs = {
        {"filename", Required("string", true)},
        {"content", Optional("string", true)},
        {"content_base64", Optional("string", true)},
        {"source", Optional("string", true)},
        {"file_permission", OptionalComputed("string", true)},
        {"directory_permission", OptionalComputed("string", true)},
        {"content_md5", Computed("string")},
        {"content_sha1", Computed("string")},
        {"content_sha256", Computed("string")},
        {"content_base64sha256", Computed("string")},
        {"content_sha512", Computed("string")},
        {"content_base64sha512", Computed("string")}};
    if (sensitive_) {
      attrs["content"].sensitive = true;
      attrs["content_base64"].sensitive = true;
    } else {
      attrs["sensitive_content"] = Optional("string", true);
      attrs["sensitive_content"].sensitive = true;
    }
    return ManagedSchema(sensitive_ ? "local_sensitive_file" : "local_file", std::move(attrs));
  }

  Diagnostics Validate(const Value& config) const override {
    int given = 0;
    for (const char* a : kContentAttrs) {
      if (!Get(config, a).IsNull()) ++given;
    }
    if (given != 1) {
      return Error("Invalid local file content",
                   std::string("Exactly one of content, ") +
                       (sensitive_ ? "" : "sensitive_content, ") +
                       "content_base64 or source must be set.");
    }
    for (const char* p : kPermissionAttrs) {
      Value v = Get(config, p);
      if (v.IsString() && !ParseMode(v.AsString())) {
        return Error("Invalid " + std::string(p),
                     std::string(p) + " = \"" + v.AsString() +
                         "\" is not a permission: use 3 or 4 octal digits up to 0777, like \"0644\".");
      }
    }
    return {};
  }

  //! The file's path is its key: a create run again writes the same content to the same path.
  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    Value v = ApplyDefaults(planned);
    Diagnostics diags = Validate(v);
    if (diags.HasErrors()) return {{}, diags};
    std::string content;
    if (std::string error = Content(v, content); !error.empty()) {
      return {{}, Error("Cannot read local file content", error)};
    }
    std::string filename = GetString(v, "filename");
    unsigned file_mode = *ParseMode(GetString(v, "file_permission"));
    unsigned dir_mode = *ParseMode(GetString(v, "directory_permission"));
    ctx.Log(LogLevel::Debug, "writing " + filename);
    if (std::string error = env_.files->Write(filename, content, file_mode, dir_mode);
        !error.empty()) {
      return {{}, Error("Cannot create local file", error)};
    }
    return {WithChecksums(v, content), {}};
  }

  ReadResult Read(const OperationContext&, const Value& prior) override {
    std::string filename = GetString(prior, "filename");
    FileReadResult file = env_.files->Read(filename);
    if (!file.error.empty()) return {{}, false, Error("Cannot read local file", file.error)};
    if (!file.exists) return {{}, true, {}};
    Value state = prior;
    auto granted = ParseMode(GetString(prior, "file_permission"));
    if (granted && (file.mode & ~*granted) != 0) {
      state = With(state, "file_permission", Value::String(FormatMode(file.mode)));
    }
    if (DigestHex(DigestAlgorithm::kSha256, file.content) == GetString(prior, "content_sha256")) {
      return {state, false, {}};
    }
    // Edited outside: record what is there now.
    if (!Get(prior, "content_base64").IsNull()) {
      state = With(state, "content_base64", Value::String(Base64Encode(file.content)));
    } else if (!Get(prior, "sensitive_content").IsNull()) {
      state = With(state, "sensitive_content", Value::String(file.content));
    } else if (!Get(prior, "content").IsNull()) {
      state = With(state, "content", Value::String(file.content));
    } else {
      return {{}, true, {}};  // copied from `source`: nothing to show, write it again
    }
    Value id = Get(prior, "id");
    state = WithChecksums(state, file.content);
    return {With(state, "id", id), false, {}};
  }

  DeleteResult Delete(const OperationContext&, const Value& prior) override {
    if (std::string error = env_.files->Remove(GetString(prior, "filename")); !error.empty()) {
      return {Error("Cannot delete local file", error)};
    }
    return {};
  }

 protected:
  //! The file at the planned path is this create's when it holds the planned content; any
  //! other content is not ours to adopt (or, for a destroy, to delete).
  ReadResult FindCreated(const OperationContext&, const Value& planned) override {
    Value v = ApplyDefaults(planned);
    std::string content;
    if (!Content(v, content).empty()) return {Value(), true, {}};
    FileReadResult file = env_.files->Read(GetString(v, "filename"));
    if (!file.error.empty()) return {{}, false, Error("Cannot read local file", file.error)};
    if (!file.exists || file.content != content) return {Value(), true, {}};
    return {WithChecksums(v, content), false, {}};
  }

  Value ApplyDefaults(const Value& in) const override {
    Value v = in;
    for (const char* p : kPermissionAttrs) {
      if (Get(v, p).IsNull()) v = With(v, p, Value::String(sensitive_ ? "0700" : "0777"));
    }
    return v;
  }

 private:
  //! The bytes to write; returns an error message.
  std::string Content(const Value& v, std::string& out) const {
    if (Value c = Get(v, "content"); c.IsString()) {
      out = c.AsString();
    } else if (Value s = Get(v, "sensitive_content"); s.IsString()) {
      out = s.AsString();
    } else if (Value b = Get(v, "content_base64"); b.IsString()) {
      auto decoded = base::Base64Decode(b.AsString(), base::Base64Input::kLenient);
      if (!decoded) return "content_base64 is not valid base64";
      out = *decoded;
    } else if (Value src = Get(v, "source"); src.IsString()) {
      FileReadResult file = env_.files->Read(src.AsString());
      if (!file.exists) return file.error.empty() ? "source " + src.AsString() + " does not exist" : file.error;
      out = file.content;
    } else {
      return "no content is set";
    }
    return {};
  }

  Value WithChecksums(Value v, const std::string& content) const {
    return Normalize(CachedSchema(), WithContentDigests(std::move(v), content));
  }

  bool sensitive_;
};

//! data "local_file": reads a file's content.
class LocalFileData : public BuiltinDataSourceType {
 public:
  using BuiltinDataSourceType::BuiltinDataSourceType;

  ResourceSchema Schema() const override {
    ResourceSchema s;
    s.type = "local_file";
    s.mode = ResourceMode::Data;
    s.attributes = {{"filename", Required("string")},       {"content", Computed("string")},
                    {"content_base64", Computed("string")}, {"id", Computed("string")},
                    {"content_md5", Computed("string")},    {"content_sha1", Computed("string")},
                    {"content_sha256", Computed("string")}, {"content_sha512", Computed("string")},
                    {"content_base64sha256", Computed("string")},
                    {"content_base64sha512", Computed("string")}};
    return s;
  }

  ReadResult Read(const OperationContext&, const Value& config) override {
    std::string filename = GetString(config, "filename");
    FileReadResult file = env_.files->Read(filename);
    if (!file.exists || !file.error.empty()) {
      return {{}, false, Error("Cannot read local file",
                               file.error.empty() ? filename + " does not exist" : file.error)};
    }
    const std::string& c = file.content;
    Value v = config;
    v = With(v, "content", Value::String(c));
    v = With(v, "content_base64", Value::String(Base64Encode(c)));
    v = WithContentDigests(std::move(v), c);
    return {Normalize(Schema(), v), false, {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewLocalFile(BuiltinEnv env) {
  return std::make_unique<LocalFile>(std::move(env), false);
}

std::unique_ptr<ResourceType> NewLocalSensitiveFile(BuiltinEnv env) {
  return std::make_unique<LocalFile>(std::move(env), true);
}

std::unique_ptr<DataSourceType> NewLocalFileData(BuiltinEnv env) {
  return std::make_unique<LocalFileData>(std::move(env));
}

}  // namespace strata
