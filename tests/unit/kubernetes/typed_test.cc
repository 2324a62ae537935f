// Terraform's typed Kubernetes resources: the rename table, the schemas the provider
// publishes, and each kind's translation — tests/golden/kubernetes_typed/<Kind>.typed.json
// (attributes as a Terraform user writes them) must become <Kind>.manifest.json, and that
// manifest read back as an object must give the attributes again.
// STRATA_UPDATE_GOLDEN=1 rewrites the manifests. And the generated catalog is current.

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "engine/value/json.h"
#include "providers/attributes.h"
#include "providers/kubernetes/kubernetes_provider.h"
#include "providers/kubernetes/typed/quantity.h"
#include "providers/kubernetes/typed/terraform_names.h"
#include "providers/kubernetes/typed/typed_shape.h"

namespace strata::kubernetes {
namespace {

namespace fs = std::filesystem;

const fs::path kGoldenDir = fs::path(STRATA_SOURCE_DIR) / "tests/golden/kubernetes_typed";

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string NameIn(const std::string& definition, const std::string& field, FieldShape shape) {
  return TerraformFieldName(definition, CatalogField{field, shape, ""});
}

TEST(KubernetesTypedNamesTest, SnakeCaseKeepsAcronymsWhole) {
  EXPECT_EQ(SnakeCase("containerPort"), "container_port");
  EXPECT_EQ(SnakeCase("clusterIP"), "cluster_ip");
  EXPECT_EQ(SnakeCase("clusterIPs"), "cluster_ips");
  EXPECT_EQ(SnakeCase("externalIPs"), "external_ips");
  EXPECT_EQ(SnakeCase("nonResourceURLs"), "non_resource_urls");
  EXPECT_EQ(SnakeCase("hostPID"), "host_pid");
  EXPECT_EQ(SnakeCase("targetCPUUtilizationPercentage"), "target_cpu_utilization_percentage");
  EXPECT_EQ(SnakeCase("setHostnameAsFQDN"), "set_hostname_as_fqdn");
  EXPECT_EQ(SnakeCase("scaleIO"), "scale_io");
  EXPECT_EQ(SnakeCase("fsType"), "fs_type");
  EXPECT_EQ(SnakeCase("env"), "env");
}

TEST(KubernetesTypedNamesTest, RepeatedBlocksAreSingularAsTerraformNamesThem) {
  const std::string pod = "io.k8s.api.core.v1.PodSpec", container = "io.k8s.api.core.v1.Container";
  EXPECT_EQ(NameIn(pod, "containers", FieldShape::ObjectList), "container");
  EXPECT_EQ(NameIn(pod, "initContainers", FieldShape::ObjectList), "init_container");
  EXPECT_EQ(NameIn(pod, "volumes", FieldShape::ObjectList), "volume");
  EXPECT_EQ(NameIn(pod, "tolerations", FieldShape::ObjectList), "toleration");
  EXPECT_EQ(NameIn(pod, "imagePullSecrets", FieldShape::ObjectList), "image_pull_secrets");
  EXPECT_EQ(NameIn(pod, "hostAliases", FieldShape::ObjectList), "host_aliases");
  EXPECT_EQ(NameIn(container, "ports", FieldShape::ObjectList), "port");
  EXPECT_EQ(NameIn(container, "env", FieldShape::ObjectList), "env");
  EXPECT_EQ(NameIn(container, "envFrom", FieldShape::ObjectList), "env_from");
  EXPECT_EQ(NameIn(container, "volumeMounts", FieldShape::ObjectList), "volume_mount");
  EXPECT_EQ(NameIn("io.k8s.api.rbac.v1.ClusterRole", "rules", FieldShape::ObjectList), "rule");
  EXPECT_EQ(NameIn("io.k8s.api.rbac.v1.RoleBinding", "subjects", FieldShape::ObjectList), "subject");
  EXPECT_EQ(NameIn("io.k8s.api.rbac.v1.RoleBinding", "roleRef", FieldShape::Object), "role_ref");
  EXPECT_EQ(NameIn("io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector", "matchExpressions", FieldShape::ObjectList),
            "match_expressions");
  // Lists of scalars keep their plural: a rule's verbs, a container's args.
  EXPECT_EQ(NameIn("io.k8s.api.rbac.v1.PolicyRule", "apiGroups", FieldShape::StringList), "api_groups");
  // One-off names.
  EXPECT_EQ(NameIn("io.k8s.api.core.v1.ServiceAccount", "imagePullSecrets", FieldShape::ObjectList),
            "image_pull_secret");
  EXPECT_EQ(NameIn("io.k8s.api.core.v1.ServiceAccount", "secrets", FieldShape::ObjectList), "secret");
  EXPECT_EQ(NameIn("io.k8s.api.apps.v1.DaemonSetSpec", "updateStrategy", FieldShape::Object), "strategy");
  EXPECT_EQ(NameIn("io.k8s.api.apps.v1.StatefulSetSpec", "updateStrategy", FieldShape::Object), "update_strategy");
  EXPECT_EQ(NameIn("io.k8s.api.core.v1.Volume", "cephfs", FieldShape::Object), "ceph_fs");
  EXPECT_EQ(NameIn("io.k8s.api.core.v1.RBDVolumeSource", "monitors", FieldShape::StringList), "ceph_monitors");
  EXPECT_EQ(NameIn("io.k8s.api.batch.v1.CronJobSpec", "timeZone", FieldShape::String), "timezone");
  EXPECT_EQ(NameIn("io.k8s.api.storage.v1.StorageClass", "provisioner", FieldShape::String), "storage_provisioner");
}

TEST(KubernetesTypedNamesTest, EveryTypedKindIsInTheGeneratedCatalog) {
  const TypedCatalog& catalog = BuiltinTypedCatalog();
  for (const TypedResourceKind& k : TypedResourceKinds()) {
    EXPECT_NE(catalog.Kind(k.kind), nullptr) << k.kind << ": add it to scripts/k8s_typed_catalog.py's KINDS";
  }
  EXPECT_EQ(catalog.kinds.size(), TypedResourceKinds().size());
}

// scripts/k8s_typed_catalog.py run again on ../shared's swagger.json must write the
// committed typed_catalog.inc byte for byte.
TEST(KubernetesTypedNamesTest, TheCommittedCatalogIsCurrent) {
  fs::path swagger = fs::path(STRATA_SHARED_DIR) / "testdata/k8s-openapi/swagger.json";
  ASSERT_TRUE(fs::exists(swagger)) << swagger;
  fs::path source = STRATA_SOURCE_DIR;
  fs::path out = fs::temp_directory_path() / ("typed-catalog-" + std::to_string(::getpid()) + ".inc");
  std::string command = "python3 '" + (source / "scripts/k8s_typed_catalog.py").string() + "' '" + swagger.string() +
                        "' '" + out.string() + "'";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  std::string regenerated = ReadText(out);
  fs::remove(out);
  EXPECT_TRUE(regenerated == ReadText(source / "providers/kubernetes/typed/typed_catalog.inc"))
      << "providers/kubernetes/typed/typed_catalog.inc is stale: run scripts/k8s_typed_catalog.py";
}

TEST(KubernetesTypedSchemaTest, TheProviderPublishesTerraformsNamesAndShapes) {
  KubernetesProvider provider;
  ProviderSchema schema = provider.Schema();
  for (const char* name : {"kubernetes_namespace", "kubernetes_namespace_v1", "kubernetes_daemonset",
                           "kubernetes_daemon_set_v1", "kubernetes_deployment_v1", "kubernetes_cron_job_v1",
                           "kubernetes_horizontal_pod_autoscaler_v2", "kubernetes_pod_disruption_budget_v1"}) {
    EXPECT_NE(schema.Find(ResourceMode::Managed, name), nullptr) << name;
  }
  const ResourceSchema* deployment = schema.Find(ResourceMode::Managed, "kubernetes_deployment");
  ASSERT_NE(deployment, nullptr);
  EXPECT_TRUE(deployment->attributes.at("metadata").required);
  EXPECT_TRUE(deployment->attributes.count("wait_for_rollout"));
  std::string spec = deployment->attributes.at("spec").type.ToString();
  for (const char* part : {"container=optional(list(object({", "volume_mount=optional(", "match_labels=optional(map(string))",
                           "max_surge=optional(string)", "replicas=optional(number)"}) {
    EXPECT_NE(spec.find(part), std::string::npos) << part;
  }
  EXPECT_EQ(spec.find(" containers="), std::string::npos);
  EXPECT_EQ(spec.find("{containers="), std::string::npos);
  std::string metadata = deployment->attributes.at("metadata").type.ToString();
  EXPECT_EQ(metadata,
            "list(object({annotations=optional(map(string)), generate_name=optional(string), "
            "generation=optional(number), labels=optional(map(string)), name=optional(string), "
            "namespace=optional(string), resource_version=optional(string), uid=optional(string)}))");
  const ResourceSchema* secret = schema.Find(ResourceMode::Managed, "kubernetes_secret");
  ASSERT_NE(secret, nullptr);
  EXPECT_TRUE(secret->attributes.at("data").sensitive);
  EXPECT_FALSE(secret->attributes.count("string_data"));
  EXPECT_FALSE(schema.Find(ResourceMode::Managed, "kubernetes_config_map")->attributes.count("wait_for_rollout"));
}

// Every key of `v` is an attribute of `type` (the golden inputs use Terraform's names only).
void ExpectNamesKnown(const Value& v, const Type& type, const std::string& path) {
  if (v.IsNull()) return;
  if (type.kind() == Type::Kind::List && v.IsSequence()) {
    for (const Value& item : v.AsList()) ExpectNamesKnown(item, type.element(), path + "[]");
  } else if (type.kind() == Type::Kind::Object && v.IsMapping()) {
    for (const auto& [key, item] : v.AsMap()) {
      auto it = type.attributes().find(key);
      if (it == type.attributes().end()) {
        ADD_FAILURE() << path << "." << key << " is not an attribute of " << type.ToString().substr(0, 200);
        continue;
      }
      ExpectNamesKnown(item, it->second.type, path + "." + key);
    }
  }
}

class KubernetesTypedGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(KubernetesTypedGoldenTest, TranslatesToTheGoldenManifestAndBack) {
  const TypedCatalog& catalog = BuiltinTypedCatalog();
  const CatalogKind* kind = catalog.Kind(GetParam());
  ASSERT_NE(kind, nullptr);
  TypedShape shape(catalog, *kind);
  Json input = Json::parse(ReadText(kGoldenDir / (GetParam() + ".typed.json")));
  ValueMap typed;
  for (const auto& [name, a] : shape.Attributes()) {
    Value v = input.contains(name) ? JsonToValue(input[name]) : Value();
    ExpectNamesKnown(v, a.type, name);
    ConversionResult c = ConvertValue(v, a.type);
    ASSERT_TRUE(c.ok()) << name << ": " << c.error;
    typed[name] = c.value;
  }
  for (const auto& [key, unused] : input.items()) EXPECT_TRUE(typed.count(key)) << key << " is not an argument";

  Json manifest = ValueToJson(shape.ToManifest(Value::Object(typed)));
  std::string text = manifest.dump(2) + "\n";
  fs::path golden = kGoldenDir / (GetParam() + ".manifest.json");
  const char* update = std::getenv("STRATA_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream(golden, std::ios::binary) << text;
  } else {
    ASSERT_TRUE(fs::exists(golden)) << golden << " is missing; run with STRATA_UPDATE_GOLDEN=1 to create it.";
    EXPECT_EQ(text, ReadText(golden)) << golden << " differs; STRATA_UPDATE_GOLDEN=1 regenerates it.";
  }

  // Read back: the manifest as the object Strata's manager owns, the server's metadata.
  Json live = manifest;
  live["metadata"]["uid"] = "u-1";
  live["metadata"]["resourceVersion"] = "7";
  ValueMap back = shape.FromObject(manifest, live);
  for (const auto& [name, value] : typed) {
    Value expected = value;
    if (name == "metadata") {
      ValueMap meta = value.AsList().front().AsMap();
      meta["uid"] = Value::String("u-1");
      meta["resource_version"] = Value::String("7");
      if (kind->namespaced && meta["namespace"].IsNull()) meta["namespace"] = Value::String("default");
      expected = ConvertValue(Value::List({Value::Object(meta)}), shape.Attributes().at(name).type).value;
    }
    EXPECT_TRUE(back.at(name).Equals(expected)) << name << " read back differs:\n"
                                                << ValueToJson(back.at(name)).dump() << "\n"
                                                << ValueToJson(expected).dump();
  }
}

std::vector<std::string> GoldenKinds() {
  std::vector<std::string> kinds;
  for (const TypedResourceKind& k : TypedResourceKinds()) kinds.push_back(k.kind);
  return kinds;
}

INSTANTIATE_TEST_SUITE_P(EveryKind, KubernetesTypedGoldenTest, ::testing::ValuesIn(GoldenKinds()),
                         [](const auto& info) { return info.param; });

TEST(KubernetesTypedTranslationTest, UnknownsStayUnknownAndSecretsAreSentAsBase64) {
  const TypedCatalog& catalog = BuiltinTypedCatalog();
  TypedShape secret(catalog, *catalog.Kind("Secret"));
  Value typed = Value::Object(
      {{"metadata", Value::List({Value::Object({{"name", Value::String("s")}})})},
       {"data", Value::Map({{"k", Value::String("hello")}})}});
  Json manifest = ValueToJson(secret.ToManifest(typed));
  EXPECT_EQ(manifest["data"]["k"], "aGVsbG8=");
  EXPECT_EQ(manifest["metadata"]["namespace"], "default");
  typed = Value::Object({{"metadata", Value::List({Value::Object({{"name", Value::Unknown()}})})}});
  EXPECT_FALSE(secret.ToManifest(typed).IsWhollyKnown());
  TypedShape ns(catalog, *catalog.Kind("Namespace"));
  Json namespace_manifest =
      ValueToJson(ns.ToManifest(Value::Object({{"metadata", Value::List({Value::Object({{"name", Value::String("n")}})})}})));
  EXPECT_FALSE(namespace_manifest["metadata"].contains("namespace"));  // cluster-scoped
}

TEST(KubernetesTypedValidateTest, AnObjectNeedsItsName) {
  KubernetesProvider provider;
  OperationContext ctx;
  Value config = Value::Object(
      {{"metadata", Value::List({Value::Object({{"generate_name", Value::String("web-")}})})}});
  Diagnostics diags = provider.ValidateResourceConfig(ctx, ResourceMode::Managed, "kubernetes_deployment", config);
  ASSERT_TRUE(diags.HasErrors());
  std::string text = diags.items().front().summary + ": " + diags.items().front().detail;
  EXPECT_NE(text.find("metadata.name is required"), std::string::npos) << text;
  EXPECT_NE(text.find("generate_name is not supported"), std::string::npos) << text;
  config = Value::Object({{"metadata", Value::List({Value::Object({{"name", Value::Unknown()}})})}});
  EXPECT_FALSE(provider.ValidateResourceConfig(ctx, ResourceMode::Managed, "kubernetes_deployment", config).HasErrors());
}

TEST(KubernetesTypedQuantityTest, QuantitiesCompareByValue) {
  EXPECT_TRUE(EquivalentQuantities("0.5", "500m"));
  EXPECT_TRUE(EquivalentQuantities("1Gi", "1024Mi"));
  EXPECT_TRUE(EquivalentQuantities("1000m", "1"));
  EXPECT_TRUE(EquivalentQuantities("1e3", "1k"));
  EXPECT_TRUE(EquivalentQuantities("0.1", "100m"));
  EXPECT_TRUE(EquivalentQuantities("0", "0Mi"));
  EXPECT_FALSE(EquivalentQuantities("1G", "1Gi"));
  EXPECT_FALSE(EquivalentQuantities("100m", "101m"));
  EXPECT_FALSE(EquivalentQuantities("-1", "1"));
  EXPECT_FALSE(EquivalentQuantities("fast", "fast"));  // not quantities
  EXPECT_FALSE(EquivalentQuantities("1Xi", "1"));
}

TEST(KubernetesTypedQuantityTest, TheServersCanonicalSpellingIsNoDrift) {
  const TypedCatalog& catalog = BuiltinTypedCatalog();
  TypedShape deployment(catalog, *catalog.Kind("Deployment"));
  auto typed_with = [&](const char* cpu, const char* image) {
    Value container = Value::Object({{"name", Value::String("c")},
                                     {"image", Value::String(image)},
                                     {"resources", Value::List({Value::Object({{"limits", Value::Map({{"cpu", Value::String(cpu)}})}})})}});
    Value pod = Value::Object({{"container", Value::List({container})}});
    Value spec = Value::Object({{"template", Value::List({Value::Object({{"spec", Value::List({pod})}})})}});
    ValueMap out;
    for (const auto& [name, a] : deployment.Attributes()) out[name] = Value();
    out["metadata"] = Value::List({Value::Object({{"name", Value::String("d")}})});
    out["spec"] = ConvertValue(Value::List({spec}), deployment.Attributes().at("spec").type).value;
    return Value::Object(out);
  };
  Value prior = typed_with("0.5", "nginx:1");
  Json live = ValueToJson(deployment.ToManifest(typed_with("500m", "nginx:1")));
  EXPECT_TRUE(deployment.FromObject(live, live, prior).at("spec").Equals(attrs::Get(prior, "spec")));
  live = ValueToJson(deployment.ToManifest(typed_with("250m", "nginx:2")));
  Value read = deployment.FromObject(live, live, prior).at("spec");
  EXPECT_TRUE(read.Equals(attrs::Get(typed_with("250m", "nginx:2"), "spec"))) << ValueToJson(read).dump();
}

TEST(KubernetesTypedTranslationTest, ASecretsBinaryDataIsSentInDataAndReadBackWhereItWas) {
  const TypedCatalog& catalog = BuiltinTypedCatalog();
  TypedShape secret(catalog, *catalog.Kind("Secret"));
  EXPECT_TRUE(secret.Attributes().at("binary_data").sensitive);
  Value typed = Value::Object({{"metadata", Value::List({Value::Object({{"name", Value::String("s")}})})},
                               {"data", Value::Map({{"k", Value::String("hello")}})},
                               {"binary_data", Value::Map({{"blob", Value::String("AAEC")}})}});
  Json manifest = ValueToJson(secret.ToManifest(typed));
  EXPECT_EQ(manifest["data"], Json({{"k", "aGVsbG8="}, {"blob", "AAEC"}}));
  ValueMap back = secret.FromObject(manifest, manifest, typed);
  EXPECT_EQ(ValueToJson(back.at("data")), Json({{"k", "hello"}}));
  EXPECT_EQ(ValueToJson(back.at("binary_data")), Json({{"blob", "AAEC"}}));
  EXPECT_TRUE(back.at("binary_data").IsSensitive());
  // Imported (no prior): bytes that are not text stay base64 in binary_data.
  back = secret.FromObject(manifest, manifest);
  EXPECT_EQ(ValueToJson(back.at("data")), Json({{"k", "hello"}}));
  EXPECT_EQ(ValueToJson(back.at("binary_data")), Json({{"blob", "AAEC"}}));
  Json invalid = manifest;
  invalid["data"] = {{"latin1", "6Q=="}, {"text", "w6k="}};  // "\xe9" alone; "é" in UTF-8
  back = secret.FromObject(invalid, invalid);
  EXPECT_EQ(ValueToJson(back.at("data")), Json({{"text", "\u00e9"}}));
  EXPECT_EQ(ValueToJson(back.at("binary_data")), Json({{"latin1", "6Q=="}}));
}

}  // namespace
}  // namespace strata::kubernetes
