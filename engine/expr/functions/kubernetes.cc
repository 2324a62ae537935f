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
#include <optional>
#include <utility>
#include <vector>

#include "engine/expr/eval.h"
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

  const ValueMap& objects() const { return objects_; }
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

// `v` with every unknown part replaced by `token`.
Value WithUnknownsAs(const Value& v, const std::string& token) {
  if (!v.IsKnown()) return Value::String(token);
  if (v.kind() == ValueKind::Object || v.kind() == ValueKind::Map) {
    ValueMap items;
    for (const auto& [k, e] : v.AsMap()) items.emplace(k, WithUnknownsAs(e, token));
    return v.kind() == ValueKind::Object ? Value::Object(std::move(items)) : Value::Map(std::move(items));
  }
  if (v.kind() == ValueKind::List || v.kind() == ValueKind::Tuple || v.kind() == ValueKind::Set) {
    ValueList items;
    for (const Value& e : v.AsList()) items.push_back(WithUnknownsAs(e, token));
    if (v.kind() == ValueKind::List) return Value::List(std::move(items));
    return v.kind() == ValueKind::Tuple ? Value::Tuple(std::move(items)) : Value::Set(std::move(items));
  }
  return v;
}

// What two renderings of one object agree on, with what differs (where a placeholder went)
// unknown: apiVersion, kind and the name stay known, so that the provider can rank the object
// at plan time (a PersistentVolume before the claim on it) although a value in it is not.
Value AgreedParts(const Value& a, const Value& b) {
  if (a.Equals(b)) return a;
  if (a.kind() != b.kind() || !a.IsKnown() || !b.IsKnown()) return Value::Unknown();
  if (a.kind() == ValueKind::Object || a.kind() == ValueKind::Map) {
    const ValueMap& in_a = a.AsMap();
    const ValueMap& in_b = b.AsMap();
    if (in_a.size() != in_b.size()) return Value::Unknown();
    ValueMap items;
    for (const auto& [k, e] : in_a) {
      auto other = in_b.find(k);
      if (other == in_b.end()) return Value::Unknown();
      items.emplace(k, AgreedParts(e, other->second));
    }
    return a.kind() == ValueKind::Object ? Value::Object(std::move(items)) : Value::Map(std::move(items));
  }
  if (a.kind() == ValueKind::List || a.kind() == ValueKind::Tuple) {
    const ValueList& in_a = a.AsList();
    const ValueList& in_b = b.AsList();
    if (in_a.size() != in_b.size()) return Value::Unknown();
    ValueList items;
    for (size_t i = 0; i < in_a.size(); ++i) items.push_back(AgreedParts(in_a[i], in_b[i]));
    return a.kind() == ValueKind::List ? Value::List(std::move(items)) : Value::Tuple(std::move(items));
  }
  return Value::Unknown();
}

// The documents of `texts` (name → text) rendered with `vars`. When `vars` holds values not
// known until apply, the keys must not wait for them (for_each needs them at plan): the
// texts are rendered twice, each unknown standing for a different placeholder; when both
// renderings name the same objects, the keys are known, and the parts of an object where its
// two renderings differ are unknown until apply (AgreedParts). Otherwise (an unknown in a name, a template that cannot
// render a placeholder) the whole result is unknown.
Value Documents(const std::vector<std::pair<std::string, std::string>>& texts, const Value& vars,
                const FunctionContext& ctx) {
  auto render = [&](const Value& with) -> std::optional<DocumentSet> {
    DocumentSet set;
    for (const auto& [name, text] : texts) {
      if (!set.AddTemplate(text, name, with, ctx)) return std::nullopt;
    }
    return set;
  };
  if (vars.IsWhollyKnown()) {
    auto set = render(vars);
    return set ? std::move(*set).ToValue() : Value::Unknown();
  }
  std::optional<DocumentSet> a, b;
  try {
    a = render(WithUnknownsAs(vars, "strata-unknown-a7"));
    b = render(WithUnknownsAs(vars, "strata-unknown-value-b9"));
  } catch (const FunctionError&) {
    return Value::Unknown();  // the template cannot take a placeholder: known at apply
  } catch (const EvalError&) {
    return Value::Unknown();
  }
  if (!a || !b || a->objects().size() != b->objects().size()) return Value::Unknown();
  ValueMap out;
  for (const auto& [identity, object] : a->objects()) {
    auto other = b->objects().find(identity);
    if (other == b->objects().end()) return Value::Unknown();
    out.emplace(identity, AgreedParts(object, other->second));
  }
  return Value::Object(std::move(out));
}

// The path or text, and vars as a whole, must be known; parts of vars may not be (Documents).
bool ArgumentsKnown(const Args& args) { return args[0].IsWhollyKnown() && args[1].IsKnown(); }

Value KubernetesDocuments(const Args& args, const FunctionContext& ctx) {
  if (!ArgumentsKnown(args)) return Value::Unknown();
  Value vars = functions::TemplateVarsArg(args, 1);
  functions::RequireTemplateRenderer(ctx, "kubernetes_documents");
  std::string path = functions::ResolvePath(ctx, functions::StringArg(args, 0));
  std::vector<std::pair<std::string, std::string>> texts;
  for (const auto& file : ManifestFiles(path)) {
    std::string text = functions::ReadFileAt(file, 0);
    if (!functions::IsValidUtf8(text)) Fail(0, fmt::format("\"{}\" is not UTF-8 text, so it is not a manifest", file));
    texts.emplace_back(file, std::move(text));
  }
  return Documents(texts, vars, ctx);
}

Value KubernetesDocumentsText(const Args& args, const FunctionContext& ctx) {
  if (!ArgumentsKnown(args)) return Value::Unknown();
  Value vars = functions::TemplateVarsArg(args, 1);
  functions::RequireTemplateRenderer(ctx, "kubernetes_documents_text");
  return Documents({{kTextSource, functions::StringArg(args, 0)}}, vars, ctx);
}

}  // namespace

void RegisterKubernetesFunctions(FunctionTable& table) {
  // Unknown parts of vars are handled (Documents): the keys stay known for for_each.
  functions::Define(table, "kubernetes_documents", 2, 2, KubernetesDocuments, /*accepts_unknown=*/true);
  functions::Define(table, "kubernetes_documents_text", 2, 2, KubernetesDocumentsText, /*accepts_unknown=*/true);
}

}  // namespace strata
