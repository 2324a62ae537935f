// Kubernetes manifests as values (a Strata extension; Terraform has no such function):
// kubernetes_documents(path, vars) reads a manifest file or a directory of them,
// kubernetes_documents_text(text, vars) a string. Each text is rendered as a template with
// `vars` (templatefile's rules), split into documents as kubectl splits them
// (kubernetes_documents.h), and the result is an object keyed by each object's identity
// "<group>/<Kind>/<namespace>/<name>", so that `for_each` makes one instance per object.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "engine/expr/function.h"
#include "engine/expr/functions/kubernetes_documents.h"
#include "engine/expr/functions/util.h"

namespace strata {
namespace {

using functions::Args;
using functions::Fail;
using functions::KubernetesDocument;
using functions::ManifestSource;
namespace fs = std::filesystem;

// The label texts from kubernetes_documents_text carry in positions.
constexpr const char* kTextSource = "<text>";

// The manifest files `path` names: itself, or a directory's *.yaml, *.yml and *.json files
// (not its subdirectories) in name order, as `kubectl apply -f DIR` takes them.
std::vector<std::string> ManifestFiles(const std::string& path) {
  std::error_code ec;
  auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) Fail(0, fmt::format("no file or directory exists at \"{}\"", path));
  if (!fs::is_directory(status)) return {path};
  std::vector<std::string> files;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    std::string ext = it->path().extension().string();
    if ((ext == ".yaml" || ext == ".yml" || ext == ".json") && it->is_regular_file(ec)) {
      files.push_back(it->path().string());
    }
  }
  if (ec) Fail(0, fmt::format("failed to list \"{}\": {}", path, ec.message()));
  std::sort(files.begin(), files.end());
  return files;
}

size_t LineCount(const std::string& text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

// Collects the documents of several texts, refusing a second object with an identity seen
// before (naming both places).
class DocumentSet {
 public:
  //! Renders `text` with `vars` and adds its documents; false when the rendering is unknown.
  bool AddTemplate(const std::string& text, const std::string& name, const Value& vars, const FunctionContext& ctx) {
    Value rendered = ctx.render_template(text, name, vars);
    if (!rendered.IsString()) return false;
    const std::string& out = rendered.AsString();
    ManifestSource source{name, LineCount(out) != LineCount(text)};
    for (auto& doc : functions::ReadKubernetesDocuments(out, source)) Add(std::move(doc));
    return true;
  }

  Value ToValue() && { return Value::Object(std::move(objects_)); }

 private:
  void Add(KubernetesDocument doc) {
    auto [it, inserted] = locations_.emplace(doc.identity, doc.location);
    if (!inserted) {
      Fail(0, fmt::format("{}: {} appears a second time (first at {}); each Kubernetes object may appear once, since it "
                          "is one instance of for_each",
                          doc.location, doc.identity, it->second));
    }
    objects_.emplace(std::move(doc.identity), std::move(doc.object));
  }

  std::map<std::string, std::string> locations_;
  ValueMap objects_;
};

Value KubernetesDocuments(const Args& args, const FunctionContext& ctx) {
  Value vars = functions::TemplateVarsArg(args, 1);
  functions::RequireTemplateRenderer(ctx, "kubernetes_documents");
  std::string path = functions::ResolvePath(ctx, functions::StringArg(args, 0));
  DocumentSet set;
  for (const auto& file : ManifestFiles(path)) {
    std::string text = functions::ReadFileAt(file, 0);
    if (!functions::IsValidUtf8(text)) Fail(0, fmt::format("\"{}\" is not UTF-8 text, so it is not a manifest", file));
    if (!set.AddTemplate(text, file, vars, ctx)) return Value::Unknown();
  }
  return std::move(set).ToValue();
}

Value KubernetesDocumentsText(const Args& args, const FunctionContext& ctx) {
  Value vars = functions::TemplateVarsArg(args, 1);
  functions::RequireTemplateRenderer(ctx, "kubernetes_documents_text");
  DocumentSet set;
  if (!set.AddTemplate(functions::StringArg(args, 0), kTextSource, vars, ctx)) return Value::Unknown();
  return std::move(set).ToValue();
}

}  // namespace

void RegisterKubernetesFunctions(FunctionTable& table) {
  functions::Define(table, "kubernetes_documents", 2, 2, KubernetesDocuments);
  functions::Define(table, "kubernetes_documents_text", 2, 2, KubernetesDocumentsText);
}

}  // namespace strata
