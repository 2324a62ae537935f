// Values pasted where a reference belongs. The reference deployment pasted the certificate's
// ARN, the user pool's ARN, its client id and domain into the KfDef (and they disagreed), and
// pulled the handler's image from another account's eu-west-1 registry:
// - aws-pasted-arn: a literal ARN or id of a kind the project itself manages or looks up
//   (Cognito user pools and their ids and domains, ACM certificates, SQS queues' ARNs and URLs),
//   where a reference would follow it. An app client id carries nothing to recognise it by
//   (26 random characters) and is not looked for;
// - aws-pasted-arn-mismatch: such literals in one resource (or Kubernetes object) that
//   disagree with each other on account or region, or with the stage's region;
// - k8s-image-foreign-registry: a container image in an ECR registry of another region than
//   the stage's, or of an account the project otherwise never names.
#include <fmt/format.h>
#include <re2/re2.h>

#include <functional>
#include <map>
#include <set>

#include "engine/lint/rules.h"

namespace strata::lint {
namespace {

// A literal found inside a string: what it is, its account and region, where.
struct PastedLiteral {
  std::string text;
  std::string kind;  // the resource type that makes it: aws_cognito_user_pool, ...
  std::string account, region;
  Path path;
};

// ARNs and ids of the kinds the rule knows, in `s`.
void FindLiterals(const std::string& s, const Path& path, std::vector<PastedLiteral>& out) {
  if (s.find("arn:aws") == std::string::npos && s.find("sqs.") == std::string::npos && s.find('_') == std::string::npos &&
      s.find("amazoncognito.com") == std::string::npos) {
    return;
  }
  static const RE2 arn(R"((arn:aws[a-z-]*:(cognito-idp|acm|sqs):([a-z0-9-]+):(\d{12}):[A-Za-z0-9_./:-]+))");
  static const RE2 queue_url(R"((https://sqs\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?/(\d{12})/[A-Za-z0-9_.-]+))");
  static const RE2 pool_id(R"((?:^|[^A-Za-z0-9/_-])(((?:us|eu|ap|ca|sa|me|af|il|mx)-[a-z]+-\d)_[A-Za-z0-9]{6,}))");
  static const RE2 pool_domain(R"(([a-z0-9-]+\.auth\.([a-z0-9-]+)\.amazoncognito\.com))");
  static const std::map<std::string, std::string> kinds = {
      {"cognito-idp", "aws_cognito_user_pool"}, {"acm", "aws_acm_certificate"}, {"sqs", "aws_sqs_queue"}};
  re2::StringPiece in(s);
  std::string text, service, region, account;
  while (RE2::FindAndConsume(&in, arn, &text, &service, &region, &account)) {
    out.push_back({text, kinds.at(service), account, region, path});
  }
  in = re2::StringPiece(s);
  while (RE2::FindAndConsume(&in, queue_url, &text, &region, &account)) {
    out.push_back({text, "aws_sqs_queue", account, region, path});
  }
  in = re2::StringPiece(s);
  while (RE2::FindAndConsume(&in, pool_id, &text, &region)) {
    out.push_back({text, "aws_cognito_user_pool", "", region, path});
  }
  in = re2::StringPiece(s);
  while (RE2::FindAndConsume(&in, pool_domain, &text, &region)) {
    out.push_back({text, "aws_cognito_user_pool_domain", "", region, path});
  }
}

void CollectLiterals(const Value& v, Path& at, std::vector<PastedLiteral>& out, int depth) {
  if (depth > 24 || !v.IsKnown()) return;
  if (v.IsString()) {
    FindLiterals(v.AsString(), at, out);
  } else if (v.IsSequence()) {
    for (size_t i = 0; i < v.AsList().size(); ++i) {
      at.push_back(i);
      CollectLiterals(v.AsList()[i], at, out, depth + 1);
      at.pop_back();
    }
  } else if (v.IsMapping()) {
    for (const auto& [key, e] : v.AsMap()) {
      at.push_back(key);
      CollectLiterals(e, at, out, depth + 1);
      at.pop_back();
    }
  }
}

// The kinds of resource `component` manages or looks up.
std::set<std::string> ManagedKinds(const ProjectModel& model, int component) {
  std::set<std::string> kinds;
  for (const auto* list : {&model.instances, &model.data}) {
    for (const Instance& inst : *list) {
      if (inst.component == component) kinds.insert(inst.type);
    }
  }
  return kinds;
}

// Reports the first literal of `found` that disagrees with another or with the stage's region;
// returns whether it did.
bool Mismatch(LintContext& ctx, const Instance& inst, const std::vector<PastedLiteral>& found) {
  // A resource of another provider block (aws.us_east_1) may work in another region.
  std::optional<std::string> stage_region =
      inst.node->resource->provider.empty() ? ctx.model().Region(inst) : std::nullopt;
  const PastedLiteral* first_account = nullptr;
  for (const auto& lit : found) {
    // CloudFront takes its certificates from us-east-1 whatever the stage's region.
    bool global_cert = lit.kind == "aws_acm_certificate" && inst.type == "aws_cloudfront_distribution";
    if (stage_region && !lit.region.empty() && lit.region != *stage_region && !global_cert) {
      ctx.Report("aws-pasted-arn-mismatch", inst, lit.path,
                 fmt::format("{} is in region {}, the stage deploys to {}", lit.text, lit.region, *stage_region));
      return true;
    }
    if (lit.account.empty()) continue;
    if (!first_account) {
      first_account = &lit;
    } else if (lit.account != first_account->account) {
      ctx.Report("aws-pasted-arn-mismatch", inst, lit.path,
                 fmt::format("{} is in account {}, {} in account {}: the pasted values name two deployments", lit.text,
                             lit.account, first_account->text, first_account->account));
      return true;
    }
  }
  return false;
}

void PastedArns(LintContext& ctx) {
  std::map<int, std::set<std::string>> kinds;
  for (const Instance& inst : ctx.model().instances) {
    std::vector<PastedLiteral> found;
    Path at;
    CollectLiterals(*inst.value, at, found, 0);
    if (found.empty()) continue;
    if (!kinds.count(inst.component)) kinds[inst.component] = ManagedKinds(ctx.model(), inst.component);
    std::erase_if(found, [&](const PastedLiteral& lit) { return !kinds[inst.component].count(lit.kind); });
    if (found.empty() || Mismatch(ctx, inst, found)) continue;
    for (const auto& lit : found) {
      ctx.Report("aws-pasted-arn", inst, lit.path,
                 fmt::format("{} is written out, but the project makes or looks up that {} itself: a rename or another account "
                             "leaves this value stale",
                             lit.text, lit.kind));
    }
  }
}

// Accounts whose registries AWS runs for everyone (EKS add-ons, deep learning containers):
// any project may pull from them.
bool AwsOwnedRegistry(const std::string& account) {
  static const std::set<std::string> accounts = {"602401143452", "800184023465", "558608220178", "590381155156",
                                                 "900889452093", "151742754352", "013241004608", "918309763551",
                                                 "961992271922", "763104351884", "066635153087", "296578399912"};
  return accounts.count(account) > 0;
}

// The accounts `component` names: in ARNs, ECR registries and allowed_account_ids of its values.
std::set<std::string> KnownAccounts(const ProjectModel& model, int component) {
  static const RE2 account(R"((?:arn:aws[a-z-]*:[a-z0-9-]*:[a-z0-9-]*:|^)(\d{12})(?:[:.]|$))");
  std::set<std::string> out;
  std::function<void(const Value&, int)> walk = [&](const Value& v, int depth) {
    if (depth > 24 || !v.IsKnown()) return;
    if (v.IsString()) {
      re2::StringPiece in(v.AsString());
      std::string id;
      while (RE2::FindAndConsume(&in, account, &id)) {
        if (!AwsOwnedRegistry(id)) out.insert(id);
      }
    } else if (v.IsSequence()) {
      for (const auto& e : v.AsList()) walk(e, depth + 1);
    } else if (v.IsMapping()) {
      for (const auto& [k, e] : v.AsMap()) walk(e, depth + 1);
    }
  };
  for (const Instance& inst : model.instances) {
    if (inst.component == component && inst.type.rfind("kubernetes_", 0) != 0) walk(*inst.value, 0);
  }
  return out;
}

void ForeignImages(LintContext& ctx) {
  static const RE2 ecr(R"((\d{12})\.dkr\.ecr\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?/.*)");
  std::map<int, std::set<std::string>> accounts;
  for (const KubeObject& o : ctx.model().objects) {
    if (o.typed) continue;
    for (const Path& spec : o.PodSpecs()) {
      for (const char* list : {"initContainers", "containers"}) {
        const Value* containers = ValueAt(o.object, Join(spec, {list}));
        for (size_t i = 0; containers && containers->IsSequence() && i < containers->AsList().size(); ++i) {
          auto image = StringAt(containers->AsList()[i], {"image"});
          std::string account, region;
          if (!image || !RE2::FullMatch(*image, ecr, &account, &region)) continue;
          Path at = Join(spec, {list, i, "image"});
          auto stage_region = ctx.model().Region(*o.instance);
          if (stage_region && region != *stage_region) {
            ctx.Report("k8s-image-foreign-registry", o, at,
                       fmt::format("image {} comes from the {} registry of account {}, the stage deploys to {}", *image,
                                   region, account, *stage_region));
            continue;
          }
          if (AwsOwnedRegistry(account)) continue;
          int component = o.instance->component;
          if (!accounts.count(component)) accounts[component] = KnownAccounts(ctx.model(), component);
          if (!accounts[component].empty() && !accounts[component].count(account)) {
            ctx.Report("k8s-image-foreign-registry", o, at,
                       fmt::format("image {} comes from account {}, which the project names nowhere (it names {})", *image,
                                   account, fmt::join(accounts[component], ", ")));
          }
        }
      }
    }
  }
}

}  // namespace

void CheckAwsReferences(LintContext& ctx) {
  PastedArns(ctx);
  ForeignImages(ctx);
}

}  // namespace strata::lint
