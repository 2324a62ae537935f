// ELBv2 target groups and listeners as a load-balancer controller makes them for an
// Ingress: CreateTargetGroup (in an existing VPC; instance, ip, lambda or alb targets; the
// health check defaults of the protocol), DescribeTargetGroups (ARNs, names, or a load
// balancer's; pages), DeleteTargetGroup (refused while a listener forwards to it),
// CreateListener (on an existing load balancer; a free port; HTTPS and TLS need a
// certificate; default actions forward, redirect or fixed-response), DescribeListeners,
// DeleteListener. No targets are registered and no traffic flows.
//
// Storage: "elbv2_target_group" and "elbv2_listener" documents keyed by ARN, in AWS's
// member names, plus "region" and "tags".

#include <algorithm>

#include "sandbox/services/elbv2/elbv2_actions.h"

namespace strata::sandbox::elbv2 {
namespace {

ApiError TargetGroupNotFound() { return ApiError(400, "TargetGroupNotFound", "One or more target groups not found"); }
ApiError ListenerNotFound() { return ApiError(400, "ListenerNotFound", "One or more listeners not found"); }

std::vector<Json> InRegion(ServiceContext& ctx, const char* kind) {
  std::vector<Json> out;
  for (auto& [arn, object] : ctx.world.List(kind)) {
    if (object.value("region", "") == RegionOf(ctx)) out.push_back(object);
  }
  return out;
}

//! The ARNs of the load balancers whose listeners forward to the target group `arn`.
std::vector<std::string> LoadBalancersOf(ServiceContext& ctx, const std::string& arn) {
  std::vector<std::string> out;
  for (const Json& listener : InRegion(ctx, kListenerKind)) {
    for (const Json& action : listener["DefaultActions"]) {
      if (action.value("TargetGroupArn", "") != arn) continue;
      std::string lb = listener["LoadBalancerArn"];
      if (std::find(out.begin(), out.end(), lb) == out.end()) out.push_back(lb);
    }
  }
  return out;
}

void WriteTargetGroup(ServiceContext& ctx, pugi::xml_node parent, const Json& group) {
  pugi::xml_node out = AddChild(parent, "member");
  for (const char* member : {"TargetGroupArn", "TargetGroupName", "Protocol", "Port", "VpcId", "HealthCheckProtocol",
                             "HealthCheckPort", "HealthCheckIntervalSeconds", "HealthCheckTimeoutSeconds",
                             "HealthyThresholdCount", "UnhealthyThresholdCount", "HealthCheckPath"}) {
    if (!group.contains(member)) continue;
    const Json& value = group[member];
    AddText(out, member, value.is_string() ? value.get<std::string>() : value.dump());
  }
  AddBool(out, "HealthCheckEnabled", true);
  if (group.contains("Matcher")) AddText(AddChild(out, "Matcher"), "HttpCode", group["Matcher"].get<std::string>());
  AddStringList(out, "LoadBalancerArns", LoadBalancersOf(ctx, group["TargetGroupArn"].get<std::string>()));
  AddText(out, "TargetType", group["TargetType"].get<std::string>());
  if (group.contains("ProtocolVersion")) AddText(out, "ProtocolVersion", group["ProtocolVersion"].get<std::string>());
  AddText(out, "IpAddressType", "ipv4");
}

void CreateTargetGroup(QueryCall& call) {
  const AwsQueryParams& params = call.params;
  std::string name = params.Length("Name", 1, 32, true);
  std::string type = params.Get("TargetType", "instance");
  if (type != "instance" && type != "ip" && type != "lambda" && type != "alb") {
    throw ValidationError("TargetType", type, "Member must satisfy enum value set: [instance, ip, lambda, alb]");
  }
  Json group = {{"TargetGroupName", name}, {"TargetType", type}, {"region", RegionOf(call.ctx)}};
  if (type != "lambda") {
    std::string protocol = params.Required("Protocol");
    std::string vpc = params.Required("VpcId");
    std::optional<Json> found = call.world().Get("ec2.vpc", vpc);
    if (!found || found->value("region", RegionOf(call.ctx)) != RegionOf(call.ctx)) {
      throw ApiError(400, "ValidationError", "The VPC ID '" + vpc + "' is not found");
    }
    bool http = protocol == "HTTP" || protocol == "HTTPS";
    group["Protocol"] = protocol;
    group["Port"] = params.Integer("Port", 1, 65535).value_or(http ? (protocol == "HTTP" ? 80 : 443) : 0);
    if (group["Port"] == 0) throw ElbValidation("A port must be specified");
    group["VpcId"] = vpc;
    group["HealthCheckProtocol"] = params.Get("HealthCheckProtocol", http ? protocol : "TCP");
    group["HealthCheckPort"] = params.Get("HealthCheckPort", "traffic-port");
    group["HealthCheckIntervalSeconds"] = params.Integer("HealthCheckIntervalSeconds", 5, 300).value_or(30);
    group["HealthCheckTimeoutSeconds"] = params.Integer("HealthCheckTimeoutSeconds", 2, 120).value_or(http ? 5 : 10);
    group["HealthyThresholdCount"] = params.Integer("HealthyThresholdCount", 2, 10).value_or(5);
    group["UnhealthyThresholdCount"] = params.Integer("UnhealthyThresholdCount", 2, 10).value_or(2);
    if (http) {
      group["HealthCheckPath"] = params.Get("HealthCheckPath", "/");
      group["Matcher"] = params.Get("Matcher.HttpCode", "200");
      group["ProtocolVersion"] = params.Get("ProtocolVersion", "HTTP1");
    }
  }
  for (Json existing : InRegion(call.ctx, kTargetGroupKind)) {
    if (existing["TargetGroupName"] != name) continue;
    for (const char* member : {"TargetType", "Protocol", "Port", "VpcId"}) {
      if (existing.value(member, Json()) != group.value(member, Json())) {
        throw ApiError(400, "DuplicateTargetGroupName", "A target group with the same name '" + name + "' exists, but with different settings");
      }
    }
    WriteTargetGroup(call.ctx, AddChild(call.result, "TargetGroups"), existing);
    return;
  }
  std::string arn = "arn:aws:elasticloadbalancing:" + RegionOf(call.ctx) + ":" + call.account() + ":targetgroup/" + name +
                    "/" + call.world().RandomString(16, "0123456789abcdef");
  group["TargetGroupArn"] = arn;
  group["tags"] = TagsFrom(params, Json::object());
  call.world().Put(kTargetGroupKind, arn, group);
  WriteTargetGroup(call.ctx, AddChild(call.result, "TargetGroups"), group);
}

void DescribeTargetGroups(QueryCall& call) {
  std::vector<std::string> arns = call.params.MemberList("TargetGroupArns");
  std::vector<std::string> names = call.params.MemberList("Names");
  std::string lb = call.params.Get("LoadBalancerArn");
  if (!lb.empty() && !FindLoadBalancer(call.ctx, lb)) throw ApiError(400, "LoadBalancerNotFound", "One or more load balancers not found");
  std::vector<Json> selected;
  for (const Json& group : InRegion(call.ctx, kTargetGroupKind)) {
    std::string arn = group["TargetGroupArn"];
    if (!arns.empty() && std::find(arns.begin(), arns.end(), arn) == arns.end()) continue;
    if (!names.empty() && std::find(names.begin(), names.end(), group["TargetGroupName"].get<std::string>()) == names.end()) continue;
    if (!lb.empty()) {
      std::vector<std::string> lbs = LoadBalancersOf(call.ctx, arn);
      if (std::find(lbs.begin(), lbs.end(), lb) == lbs.end()) continue;
    }
    selected.push_back(group);
  }
  if (selected.size() < std::max(arns.size(), names.size())) throw TargetGroupNotFound();
  WriteElbPage(call, "TargetGroups", selected,
               [&](pugi::xml_node list, const Json& group) { WriteTargetGroup(call.ctx, list, group); });
}

void DeleteTargetGroup(QueryCall& call) {
  std::string arn = call.params.Required("TargetGroupArn");
  std::optional<Json> group = call.world().Get(kTargetGroupKind, arn);
  if (!group || group->value("region", "") != RegionOf(call.ctx)) return;  // already gone: success, as on AWS
  if (!LoadBalancersOf(call.ctx, arn).empty()) {
    throw ApiError(400, "ResourceInUse", "Target group '" + arn + "' is currently in use by a listener or a rule");
  }
  call.world().Erase(kTargetGroupKind, arn);
}

//! DefaultActions.member.N: forward (TargetGroupArn, or ForwardConfig's first group),
//! redirect, fixed-response; a forward's target group must exist.
Json DefaultActionsOf(QueryCall& call) {
  Json actions = Json::array();
  for (const auto& [n, fields] : call.params.MemberStructs("DefaultActions")) {
    auto type = fields.find("Type");
    if (type == fields.end()) throw ValidationError("DefaultActions.member." + std::to_string(n) + ".Type", "null", "Member must not be null");
    Json action = {{"Type", type->second}, {"Order", n}};
    if (type->second == "forward") {
      auto direct = fields.find("TargetGroupArn");
      std::string group = direct != fields.end() ? direct->second
                                                 : call.params.Get("DefaultActions.member." + std::to_string(n) +
                                                                   ".ForwardConfig.TargetGroups.member.1.TargetGroupArn");
      std::optional<Json> found = call.world().Get(kTargetGroupKind, group);
      if (!found || found->value("region", "") != RegionOf(call.ctx)) throw TargetGroupNotFound();
      action["TargetGroupArn"] = group;
    } else if (type->second != "redirect" && type->second != "fixed-response") {
      throw ElbValidation("The sandbox's listeners take forward, redirect and fixed-response actions, not '" + type->second + "'");
    }
    actions.push_back(action);
  }
  if (actions.empty()) throw ElbValidation("A listener must have at least one default action");
  return actions;
}

void WriteListener(pugi::xml_node parent, const Json& listener) {
  pugi::xml_node out = AddChild(parent, "member");
  AddText(out, "ListenerArn", listener["ListenerArn"].get<std::string>());
  AddText(out, "LoadBalancerArn", listener["LoadBalancerArn"].get<std::string>());
  AddText(out, "Port", std::to_string(listener["Port"].get<int64_t>()));
  AddText(out, "Protocol", listener["Protocol"].get<std::string>());
  pugi::xml_node certificates = AddChild(out, "Certificates");
  for (const Json& arn : listener["Certificates"]) AddText(AddChild(certificates, "member"), "CertificateArn", arn.get<std::string>());
  if (listener.contains("SslPolicy")) AddText(out, "SslPolicy", listener["SslPolicy"].get<std::string>());
  pugi::xml_node actions = AddChild(out, "DefaultActions");
  for (const Json& action : listener["DefaultActions"]) {
    pugi::xml_node member = AddChild(actions, "member");
    AddText(member, "Type", action["Type"].get<std::string>());
    if (action.contains("TargetGroupArn")) AddText(member, "TargetGroupArn", action["TargetGroupArn"].get<std::string>());
    AddText(member, "Order", std::to_string(action["Order"].get<int64_t>()));
  }
}

void CreateListener(QueryCall& call) {
  std::string lb_arn = call.params.Required("LoadBalancerArn");
  std::optional<Json> lb = FindLoadBalancer(call.ctx, lb_arn);
  if (!lb) throw ApiError(400, "LoadBalancerNotFound", "One or more load balancers not found");
  std::string type = (*lb)["Type"];
  std::string protocol = call.params.Get("Protocol", type == "network" ? "TCP" : "HTTP");
  long long port = call.params.Integer("Port", 1, 65535).value_or(protocol == "HTTPS" ? 443 : 80);
  std::vector<std::string> certificates;
  for (const auto& [n, fields] : call.params.MemberStructs("Certificates")) {
    auto arn = fields.find("CertificateArn");
    if (arn != fields.end()) certificates.push_back(arn->second);
  }
  bool secure = protocol == "HTTPS" || protocol == "TLS";
  if (secure && certificates.empty()) {
    throw ApiError(400, "CertificateNotFound", "A certificate must be specified for " + protocol + " listeners");
  }
  Json actions = DefaultActionsOf(call);
  for (const Json& other : InRegion(call.ctx, kListenerKind)) {
    if (other["LoadBalancerArn"] == lb_arn && other["Port"] == port) {
      throw ApiError(400, "DuplicateListener", "A listener already exists on this port for this load balancer");
    }
  }
  std::string lb_suffix = lb_arn.substr(lb_arn.find(":loadbalancer/") + 14);
  std::string arn = "arn:aws:elasticloadbalancing:" + RegionOf(call.ctx) + ":" + call.account() + ":listener/" + lb_suffix +
                    "/" + call.world().RandomString(16, "0123456789abcdef");
  Json listener = {{"ListenerArn", arn},        {"LoadBalancerArn", lb_arn},  {"Port", port},
                   {"Protocol", protocol},      {"Certificates", certificates}, {"DefaultActions", actions},
                   {"region", RegionOf(call.ctx)}, {"tags", TagsFrom(call.params, Json::object())}};
  if (secure) listener["SslPolicy"] = call.params.Get("SslPolicy", "ELBSecurityPolicy-2016-08");
  call.world().Put(kListenerKind, arn, listener);
  WriteListener(AddChild(call.result, "Listeners"), listener);
}

void DescribeListeners(QueryCall& call) {
  std::vector<std::string> arns = call.params.MemberList("ListenerArns");
  std::string lb = call.params.Get("LoadBalancerArn");
  if (arns.empty() == lb.empty()) throw ElbValidation("Give either a load balancer ARN or listener ARNs");
  if (!lb.empty() && !FindLoadBalancer(call.ctx, lb)) throw ApiError(400, "LoadBalancerNotFound", "One or more load balancers not found");
  std::vector<Json> selected;
  for (const Json& listener : InRegion(call.ctx, kListenerKind)) {
    std::string arn = listener["ListenerArn"];
    if (!lb.empty() ? listener["LoadBalancerArn"] == lb : std::find(arns.begin(), arns.end(), arn) != arns.end()) {
      selected.push_back(listener);
    }
  }
  if (selected.size() < arns.size()) throw ListenerNotFound();
  WriteElbPage(call, "Listeners", selected, WriteListener);
}

void DeleteListener(QueryCall& call) {
  std::string arn = call.params.Required("ListenerArn");
  std::optional<Json> listener = call.world().Get(kListenerKind, arn);
  if (!listener || listener->value("region", "") != RegionOf(call.ctx)) throw ListenerNotFound();
  call.world().Erase(kListenerKind, arn);
}

}  // namespace

void DeleteListenersOf(ServiceContext& ctx, const std::string& arn) {
  for (const Json& listener : InRegion(ctx, kListenerKind)) {
    if (listener["LoadBalancerArn"] == arn) ctx.world.Erase(kListenerKind, listener["ListenerArn"].get<std::string>());
  }
}

void AddTargetGroupActions(QueryCallTable& table) {
  table["CreateTargetGroup"] = CreateTargetGroup;
  table["DescribeTargetGroups"] = DescribeTargetGroups;
  table["DeleteTargetGroup"] = DeleteTargetGroup;
  table["CreateListener"] = CreateListener;
  table["DescribeListeners"] = DescribeListeners;
  table["DeleteListener"] = DeleteListener;
}

}  // namespace strata::sandbox::elbv2
