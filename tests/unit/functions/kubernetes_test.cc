// kubernetes_documents and kubernetes_documents_text (a Strata extension): manifest files,
// directories and strings become an object keyed by "<group>/<Kind>/<namespace>/<name>",
// rendered as templatefile renders templates, split and read as kubectl reads them.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>

#include "engine/expr/template_file.h"
#include "tests/unit/functions/function_test_util.h"
#include "tests/unit/support/temp_dir.h"

namespace strata {
namespace {

using namespace strata::testing;
using test_support::TempDir;

class KubernetesDocumentsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx_.base_dir = dir_.path();
    ctx_.render_template = RenderTemplateFile;
  }

  Value Documents(const std::string& path, const Value& vars = Value::Null()) {
    return Call("kubernetes_documents", {S(path), vars}, ctx_);
  }
  //! The message of the error kubernetes_documents(path, vars) throws.
  std::string Error(const std::string& path, const Value& vars = Value::Null()) {
    return CallError("kubernetes_documents", {S(path), vars}, ctx_).message;
  }
  std::vector<std::string> Keys(const Value& v) {
    std::vector<std::string> keys;
    for (const auto& [k, e] : v.AsMap()) keys.push_back(k);
    return keys;
  }

  TempDir dir_;
  FunctionContext ctx_;
};

constexpr const char* kAutoscaler = R"(---
# The cluster-autoscaler, as in the reference deployment (abridged).
apiVersion: v1
kind: ServiceAccount
metadata:
  name: cluster-autoscaler
  namespace: kube-system
---
---
# only a comment
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: cluster-autoscaler
rules:
  - apiGroups: [""]
    resources: ["events", "endpoints"]
    verbs: ["create", "patch"]
...
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: cluster-autoscaler
  namespace: kube-system
spec:
  replicas: 1
  template:
    spec:
      containers:
        - name: cluster-autoscaler
          command: ["./cluster-autoscaler", "--expander=priority"]
)";

TEST_F(KubernetesDocumentsTest, OneEntryPerObjectKeyedByIdentity) {
  dir_.Write("manifests/autoscaler.yaml", kAutoscaler);
  Value docs = Documents("manifests/autoscaler.yaml");
  ASSERT_TRUE(docs.IsMapping());
  EXPECT_EQ(Keys(docs), (std::vector<std::string>{"apps/Deployment/kube-system/cluster-autoscaler",
                                                  "core/ServiceAccount/kube-system/cluster-autoscaler",
                                                  "rbac.authorization.k8s.io/ClusterRole//cluster-autoscaler"}));
  const Value& deployment = docs.AsMap().at("apps/Deployment/kube-system/cluster-autoscaler");
  EXPECT_EQ(deployment.AsMap().at("spec").AsMap().at("replicas"), N(1));
  EXPECT_EQ(deployment.AsMap().at("kind"), S("Deployment"));
  const Value& role = docs.AsMap().at("rbac.authorization.k8s.io/ClusterRole//cluster-autoscaler");
  EXPECT_EQ(role.AsMap().at("rules").AsList()[0].AsMap().at("verbs"), T({S("create"), S("patch")}));
}

TEST_F(KubernetesDocumentsTest, FilesWithoutObjectsGiveAnEmptyObject) {
  dir_.Write("empty.yaml", "");
  dir_.Write("comments.yaml", "# nothing here\n---\n# nor here\n---\n...\n");
  EXPECT_EQ(Documents("empty.yaml"), O({}));
  EXPECT_EQ(Documents("comments.yaml"), O({}));
}

TEST_F(KubernetesDocumentsTest, ListDocumentsStandForTheirItems) {
  // kubectl expands any document with a top-level items key, whatever its kind.
  dir_.Write("list.yaml", R"(apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: a, namespace: x}
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: b}
---
apiVersion: v1
kind: ConfigMapList
items:
  - {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}
---
apiVersion: v1
kind: List
items: []
)");
  EXPECT_EQ(Keys(Documents("list.yaml")),
            (std::vector<std::string>{"core/ConfigMap//b", "core/ConfigMap//c", "core/ConfigMap/x/a"}));
  dir_.Write("nested.yaml", R"(apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: List
    items: []
)");
  std::string nested = Error("nested.yaml");
  EXPECT_NE(nested.find(dir_.File("nested.yaml") + ":4:5: a list inside a list document is not read"), std::string::npos)
      << nested;
  dir_.Write("noapi.yaml", "apiVersion: v1\nkind: List\nitems:\n  - kind: ConfigMap\n    metadata: {name: a}\n");
  std::string item = Error("noapi.yaml");
  EXPECT_NE(item.find(dir_.File("noapi.yaml") + ":4:5: the document has no apiVersion"), std::string::npos) << item;
}

TEST_F(KubernetesDocumentsTest, DirectoryReadsManifestFilesInNameOrderNotSubdirectories) {
  dir_.Write("m/b.yml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: kubeflow}\n");
  dir_.Write("m/a.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: one, namespace: kubeflow}\n");
  dir_.Write("m/c.json", R"({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "namespace": "kubeflow"}})");
  dir_.Write("m/notes.txt", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ignored}\n");
  dir_.Write("m/sub/deeper.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ignored-too}\n");
  EXPECT_EQ(Keys(Documents("m")), (std::vector<std::string>{"core/ConfigMap/kubeflow/one", "core/Namespace//kubeflow",
                                                            "core/Secret/kubeflow/s"}));
  // Name order shows in which file a duplicate is reported as the second one.
  dir_.Write("m/z.yaml", "# again\napiVersion: v1\nkind: Namespace\nmetadata: {name: kubeflow}\n");
  std::string twice = Error("m");
  EXPECT_NE(twice.find(dir_.File("m/z.yaml") + ":2:1: core/Namespace//kubeflow appears a second time (first at " +
                       dir_.File("m/b.yml") + ":1:1)"),
            std::string::npos)
      << twice;
  TempDir empty;
  EXPECT_EQ(Call("kubernetes_documents", {S(empty.path()), Value::Null()}, ctx_), O({}));
}

TEST_F(KubernetesDocumentsTest, EachFileIsRenderedAsTemplatefileRendersIt) {
  dir_.Write("t.yaml", R"(apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  namespace: ${namespace}
data:
  script: echo $${HOME}
  %{~ for group in groups }
  ${group}: "on"
  %{~ endfor }
)");
  Value vars = O({{"name", S("priority-expander")}, {"namespace", S("kube-system")},
                  {"groups", T({S("cpu-ondemand"), S("gpu-spot-small-a")})}});
  Value docs = Documents("t.yaml", vars);
  ASSERT_EQ(Keys(docs), (std::vector<std::string>{"core/ConfigMap/kube-system/priority-expander"}));
  const Value& data = docs.AsMap().begin()->second.AsMap().at("data");
  EXPECT_EQ(data, O({{"script", S("echo ${HOME}")}, {"cpu-ondemand", S("on")}, {"gpu-spot-small-a", S("on")}}));
  // A template error is templatefile's own message.
  dir_.Write("bad.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${nam}}\n");
  std::string from_templatefile = CallError("templatefile", {S("bad.yaml"), vars}, ctx_).message;
  EXPECT_EQ(Error("bad.yaml", vars), from_templatefile);
  EXPECT_NE(from_templatefile.find(dir_.File("bad.yaml") + ":3:"), std::string::npos) << from_templatefile;
  // vars is checked as templatefile checks it.
  FunctionError not_map = CallError("kubernetes_documents", {S("t.yaml"), S("x")}, ctx_);
  EXPECT_EQ(not_map.arg_index, 1);
  EXPECT_NE(not_map.message.find("a map or object is required"), std::string::npos);
}

// for_each needs the keys at plan time: values known only at apply leave the objects that
// use them unknown, not the keys; an unknown in a name leaves everything unknown.
TEST_F(KubernetesDocumentsTest, UnknownVarsLeaveTheObjectsThatUseThemUnknownNotTheKeys) {
  dir_.Write("t.yaml",
             "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {fixed: a}\n---\n"
             "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa\n  annotations: {role: \"${role}\"}\n");
  Value docs = Documents("t.yaml", O({{"role", Value::Unknown()}}));
  ASSERT_TRUE(docs.IsKnown());
  ASSERT_EQ(docs.AsMap().size(), 2u);
  EXPECT_TRUE(docs.AsMap().at("core/ConfigMap//x").IsWhollyKnown());
  // Only the part that holds the unknown is unknown: the kind and name stay known.
  const Value& sa = docs.AsMap().at("core/ServiceAccount//sa");
  ASSERT_TRUE(sa.IsKnown());
  EXPECT_FALSE(sa.IsWhollyKnown());
  EXPECT_EQ(sa.AsMap().at("kind").AsString(), "ServiceAccount");
  EXPECT_EQ(sa.AsMap().at("metadata").AsMap().at("name").AsString(), "sa");
  EXPECT_TRUE(sa.AsMap().at("metadata").AsMap().at("annotations").AsMap().at("role").IsUnknown());
  dir_.Write("named.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: \"${name}\"}\n");
  EXPECT_TRUE(Documents("named.yaml", O({{"name", Value::Unknown()}})).IsUnknown());
}

TEST_F(KubernetesDocumentsTest, PositionsAreThoseOfTheRenderedTextWhenTheTemplateMovesLines) {
  dir_.Write("t.yaml", "%{ for n in names }\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${n}}\n%{ endfor }\n- x\n");
  std::string error = Error("t.yaml", O({{"names", T({S("a"), S("b")})}}));
  EXPECT_NE(error.find("(a line of the rendered template, which adds or removes lines)"), std::string::npos) << error;
}

TEST_F(KubernetesDocumentsTest, ErrorsNameTheFileLineAndColumn) {
  struct Case {
    const char* text;
    const char* expected;  // after "<file>:"
  };
  const Case cases[] = {
      {"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\nkind: [unclosed\n",
       "6:1: invalid YAML: end of sequence flow not found"},
      {"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\nkind: a\n  b: c\n", "6:4: invalid YAML: "},
      {"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n- just\n- a list\n",
       "5:1: a Kubernetes document must be a mapping (an object with apiVersion, kind and metadata), got a list"},
      {"---\nkind: ConfigMap\nmetadata: {name: a}\n", "2:1: the document has no apiVersion; every Kubernetes object "
                                                     "needs apiVersion, kind and metadata.name"},
      {"apiVersion: v1\nmetadata: {name: a}\n", "1:1: the document has no kind"},
      {"apiVersion: v1\nkind: ConfigMap\n", "1:1: the ConfigMap has no metadata"},
      {"apiVersion: v1\nkind: ConfigMap\nmetadata: {namespace: x}\n", "1:1: the ConfigMap has no metadata.name"},
      {"\n\n  apiVersion: v1\n  kind: Pod\n  metadata:\n    generateName: job-\n",
       "3:3: the Pod has metadata.generateName and no metadata.name: the server picks its name when it creates it, so "
       "it has no stable identity and cannot be one instance of for_each; give it a metadata.name"},
      {"apiVersion: a/b/c\nkind: X\nmetadata: {name: a}\n", "1:1: apiVersion \"a/b/c\" is not of the form"},
      {"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: 5}\n", "1:1: metadata.name must be a string, got number"},
      {"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a/b}\n", "1:1: metadata.name \"a/b\" holds a \"/\""},
      {"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {x: .inf}\n",
       "4:11: infinite numbers cannot be represented"},
  };
  for (const auto& c : cases) {
    std::string path = dir_.Write("case.yaml", c.text);
    FunctionError e = CallError("kubernetes_documents", {S("case.yaml"), Value::Null()}, ctx_);
    EXPECT_EQ(e.arg_index, 0);
    EXPECT_EQ(e.message.rfind(path + ":" + c.expected, 0), 0u) << "for:\n" << c.text << "got: " << e.message;
  }
}

TEST_F(KubernetesDocumentsTest, TwoObjectsWithOneIdentityNameBothPlaces) {
  // The reference deployment's mistake: two ClusterRoleBindings of one name. The version
  // is not part of the identity: it is one object either way.
  std::string path = dir_.Write("rbac.yaml", R"(apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: cluster-autoscaler}
---
apiVersion: rbac.authorization.k8s.io/v1beta1
kind: ClusterRoleBinding
metadata: {name: cluster-autoscaler}
)");
  EXPECT_EQ(Error("rbac.yaml"), path + ":5:1: rbac.authorization.k8s.io/ClusterRoleBinding//cluster-autoscaler appears "
                                       "a second time (first at " +
                                       path + ":1:1); each Kubernetes object may appear once, since it is one "
                                              "instance of for_each");
}

TEST_F(KubernetesDocumentsTest, MissingPathsAreErrors) {
  FunctionError e = CallError("kubernetes_documents", {S("nope/manifests"), Value::Null()}, ctx_);
  EXPECT_EQ(e.arg_index, 0);
  EXPECT_EQ(e.message, "no file or directory exists at \"" + dir_.File("nope/manifests") + "\"");
  dir_.Write("bin.yaml", std::string("apiVersion: \xff\n"));
  EXPECT_NE(Error("bin.yaml").find("is not UTF-8 text"), std::string::npos);
  FunctionContext no_templates;
  no_templates.base_dir = dir_.path();
  EXPECT_NE(CallError("kubernetes_documents", {S("x"), Value::Null()}, no_templates)
                .message.find("kubernetes_documents is not available here"),
            std::string::npos);
}

TEST_F(KubernetesDocumentsTest, PlainScalarsAreReadAsKubectlReadsThem) {
  // YAML 1.1 through go-yaml v2 (checked with kubectl 1.32 `label --local -o json`), not
  // yamldecode's YAML 1.2: a Secret volume's defaultMode 0644 is 420.
  dir_.Write("s.yaml", R"(apiVersion: v1
kind: ConfigMap
metadata: {name: t}
spec:
  octal: 0644
  o2: 0o17
  hex: 0x1F
  under: 1_000
  neg: -012
  nine: 09
  yes1: yes
  off1: off
  y: n
  tilde: ~
  dot: .5
  exp: 1e3
  date: 2024-01-01
  sixty: 1:30
  quoted: "0644"
  tagged: !!str yes
  huge: 1e400
  0644: key
)");
  Value spec = Documents("s.yaml").AsMap().begin()->second.AsMap().at("spec");
  EXPECT_EQ(spec, O({{"octal", N(420)},      {"o2", N(15)},           {"hex", N(31)},           {"under", N(1000)},
                     {"neg", N(-10)},        {"nine", N(9)},          {"yes1", B(true)},        {"off1", B(false)},
                     {"true", B(false)},     {"tilde", Value::Null()}, {"dot", N(0.5)},          {"exp", N(1000)},
                     {"date", S("2024-01-01")}, {"sixty", S("1:30")}, {"quoted", S("0644")},    {"tagged", S("yes")},
                     {"huge", S("1e400")},   {"420", S("key")}}));
}

TEST_F(KubernetesDocumentsTest, SameInputsGiveTheSameValue) {
  dir_.Write("m/a.yaml", kAutoscaler);
  dir_.Write("m/b.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: kubeflow}\n");
  Value first = Documents("m");
  Value second = Documents("m");
  EXPECT_EQ(first, second);
  EXPECT_EQ(FormatValue(first), FormatValue(second));
}

// Merge keys as go-yaml v2 reads them for kubectl: plain `<<` only, a mapping or a list of
// mappings (the first wins), where the key stands.
TEST_F(KubernetesDocumentsTest, MergeKeysAsKubectl) {
  Value docs = Call("kubernetes_documents_text",
                    {S("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"
                       "data:\n  <<: [{a: x, b: x}, {a: w, c: w}]\n  b: z\n  \"<<\": q\n"),
                     O({})},
                    ctx_);
  EXPECT_EQ(docs.AsMap().at("core/ConfigMap//c").AsMap().at("data"),
            O({{"<<", S("q")}, {"a", S("x")}, {"b", S("z")}, {"c", S("w")}}));
  FunctionError e = CallError("kubernetes_documents_text",
                              {S("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {<<: 5}\n"), O({})}, ctx_);
  EXPECT_NE(e.message.find("a merge key (<<) takes a mapping or a list of mappings"), std::string::npos) << e.message;
}

TEST_F(KubernetesDocumentsTest, TextReadsAStringByTheSameRules) {
  Value docs = Call("kubernetes_documents_text",
                    {S("apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: nvidia-device-plugin-daemonset\n"
                       "  namespace: ${ns}\n---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
                       "metadata: {name: profiles.kubeflow.org}\n"),
                     O({{"ns", S("kube-system")}})},
                    ctx_);
  EXPECT_EQ(Keys(docs), (std::vector<std::string>{"apiextensions.k8s.io/CustomResourceDefinition//profiles.kubeflow.org",
                                                  "apps/DaemonSet/kube-system/nvidia-device-plugin-daemonset"}));
  FunctionError e =
      CallError("kubernetes_documents_text", {S("apiVersion: v1\nkind: Pod\nmetadata: {}\n"), Value::Null()}, ctx_);
  EXPECT_EQ(e.message.rfind("<text>:1:1: the Pod has no metadata.name", 0), 0u) << e.message;
}

TEST_F(KubernetesDocumentsTest, YamldecodeKeepsTerraformsReading) {
  // The scalar rules moved to a shared file; yamldecode still reads YAML 1.2.
  EXPECT_EQ(Call("yamldecode", {S("a: 0644\nb: yes\n")}), O({{"a", N(644)}, {"b", S("yes")}}));
}

TEST_F(KubernetesDocumentsTest, FiveHundredDocumentsInADirectory) {
  // 50 files of 10 documents each, every one a Deployment of about 40 lines with ${} uses.
  for (int f = 0; f < 50; ++f) {
    std::string text;
    for (int d = 0; d < 10; ++d) {
      text += "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app-" + std::to_string(f * 10 + d) +
              "\n  namespace: ${namespace}\n  labels: {app: x, tier: y}\nspec:\n  replicas: 2\n  selector:\n"
              "    matchLabels: {app: x}\n  template:\n    metadata:\n      labels: {app: x}\n    spec:\n"
              "      containers:\n        - name: main\n          image: ${image}\n          args: [--a=1, --b=2]\n"
              "          ports: [{containerPort: 8080, protocol: TCP}]\n          resources:\n"
              "            limits: {cpu: 500m, memory: 512Mi}\n            requests: {cpu: 100m, memory: 128Mi}\n"
              "          volumeMounts: [{name: config, mountPath: /etc/config}]\n"
              "      volumes: [{name: config, configMap: {name: cfg, defaultMode: 0644}}]\n"
              "      tolerations:\n        - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}\n";
    }
    char name[32];
    std::snprintf(name, sizeof name, "many/%02d.yaml", f);
    dir_.Write(name, text);
  }
  Value vars = O({{"namespace", S("apps")}, {"image", S("registry.k8s.io/app:1.0")}});
  auto start = std::chrono::steady_clock::now();
  Value docs = Documents("many", vars);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(docs.AsMap().size(), 500u);
  std::cout << "kubernetes_documents over 500 documents in 50 files: " << ms << " ms\n";
  RecordProperty("milliseconds", std::to_string(ms));
  EXPECT_LT(ms, 5000) << "reading 500 documents should take well under a second (unsanitized)";
}

}  // namespace
}  // namespace strata
