#include "sandbox/api_frontend.h"

#include <chrono>
#include <thread>

#include "providers/aws/http/http_types.h"
#include "providers/aws/http/url.h"
#include "sandbox/caller_identity.h"
#include "sandbox/standard_errors.h"

namespace strata::sandbox {
namespace {

// Header names in lower case, repeats joined with ',' (as SigV4 canonicalizes them).
// httplib's own REMOTE_ADDR-style pseudo headers are left out.
std::map<std::string, std::string> LowerCaseHeaders(const httplib::Headers& headers) {
  std::map<std::string, std::string> out;
  for (const auto& [name, value] : headers) {
    if (name == "REMOTE_ADDR" || name == "REMOTE_PORT" || name == "LOCAL_ADDR" || name == "LOCAL_PORT")
      continue;
    std::string lower = aws::ToLower(name);
    auto [it, inserted] = out.try_emplace(lower, value);
    if (!inserted) it->second += "," + value;
  }
  return out;
}

std::multimap<std::string, std::string> DecodedQuery(const std::string& target) {
  std::multimap<std::string, std::string> out;
  size_t q = target.find('?');
  if (q == std::string::npos) return out;
  for (auto& [k, v] : aws::ParseQuery(std::string_view(target).substr(q + 1))) out.emplace(k, v);
  return out;
}

// Before a service is known, answer in JSON to JSON clients and in query XML otherwise.
Protocol GuessProtocol(const Request& request) {
  auto type = request.headers.find("content-type");
  if (type != request.headers.end() && type->second.find("x-amz-json") != std::string::npos)
    return Protocol::AwsJson;
  if (type != request.headers.end() && type->second.find("json") != std::string::npos)
    return Protocol::RestJson;
  return Protocol::Query;
}

std::string ServiceNames(const std::map<std::string, std::unique_ptr<Service>>& services) {
  std::string out;
  for (const auto& [name, service] : services) out += (out.empty() ? "" : ", ") + name;
  return out;
}

}  // namespace

ApiFrontEnd::ApiFrontEnd(const SandboxSettings& settings, World& world, std::mutex& world_mutex,
                         std::string cluster_endpoint_base, std::string cluster_ca_pem)
    : settings_(settings),
      world_(world),
      world_mutex_(world_mutex),
      cluster_endpoint_base_(std::move(cluster_endpoint_base)),
      cluster_ca_pem_(std::move(cluster_ca_pem)),
      injector_(settings.seed, settings.throttle_probability, settings.fault_probability,
                settings.lost_reply_probability) {
  for (auto make : {NewStsService, NewIamService, NewEc2Service, NewEksService, NewAutoScalingService, NewSqsService,
                    NewSsmService, NewKmsService, NewEventsService, NewElbv2Service, NewAcmService, NewLogsService,
                    NewCloudWatchService, NewRoute53Service, NewS3Service, NewSecretsManagerService,
                    NewCognitoIdpService, NewEfsService, NewFsxService}) {
    std::unique_ptr<Service> service = make();
    std::string name = service->name();
    services_.emplace(std::move(name), std::move(service));
  }
  SeedServices();
}

void ApiFrontEnd::SeedServices() {
  std::lock_guard lock(world_mutex_);
  Request none;
  ServiceContext ctx{world_, none, settings_, std::chrono::system_clock::now(), cluster_endpoint_base_, cluster_ca_pem_};
  world_.Begin();
  try {
    for (auto& [name, service] : services_) service->Seed(ctx);
    world_.Commit();
  } catch (...) {
    world_.Rollback();
    throw;
  }
}

void ApiFrontEnd::Serve(const httplib::Request& req, const std::string& body, httplib::Response& res) {
  Request request;
  Response response;
  try {
    {
      std::lock_guard lock(world_mutex_);
      request.request_id = world_.NewUuid();
    }
    response = Answer(req, body, request);
  } catch (const std::exception& e) {
    response = RenderError(GuessProtocol(request), request.service,
                           InternalError(GuessProtocol(request), e.what()), request.request_id);
  } catch (...) {
    response = RenderError(GuessProtocol(request), request.service,
                           InternalError(GuessProtocol(request), "unknown failure"), request.request_id);
  }
  ++calls_;
  response.headers.try_emplace("x-amzn-RequestId", request.request_id);
  res.status = response.status;
  for (const auto& [name, value] : response.headers) res.set_header(name.c_str(), value);
  res.set_content(response.body, response.content_type.c_str());
}

Response ApiFrontEnd::Answer(const httplib::Request& req, const std::string& body, Request& request) {
  ReceivedRequest received{req.method, req.target, LowerCaseHeaders(req.headers), body};
  request.method = req.method;
  request.path = req.path;
  request.query = DecodedQuery(req.target);
  request.headers = received.headers;
  request.body = body;

  SigV4Check check;
  std::optional<SigV4Auth> auth = ParseSigV4(received, &check);
  if (!auth) {
    ++bad_signatures_;
    return Refuse(nullptr, request, SignatureError(GuessProtocol(request), check));
  }
  request.service = auth->service;
  request.region = auth->region;
  request.account_id = settings_.account_id;
  auto found = services_.find(auth->service);
  if (found == services_.end()) {
    return Refuse(nullptr, request,
                  {400, "UnknownService",
                   "The sandbox does not serve \"" + auth->service +
                       "\" (the service of the request's SigV4 credential scope); it serves " +
                       ServiceNames(services_) + "."});
  }
  Service& service = *found->second;

  if (settings_.verify_signatures) {
    std::optional<std::string> secret = SecretOf(auth->access_key);
    if (!secret) {
      ++bad_signatures_;
      return Refuse(&service, request, UnknownAccessKeyError(service.protocol()));
    }
    SigV4Check verified = VerifySigV4(*auth, received, *secret, std::chrono::system_clock::now());
    if (verified.problem != SigV4Problem::None) {
      ++bad_signatures_;
      return Refuse(&service, request, SignatureError(service.protocol(), verified));
    }
  }

  {
    std::lock_guard lock(world_mutex_);
    if (std::optional<AccessKeyRecord> key = LookUpAccessKey(world_, settings_, auth->access_key))
      request.caller = key->identity;
  }

  // Outside the world lock, so that concurrent calls wait together.
  if (settings_.latency.count() > 0) std::this_thread::sleep_for(settings_.latency);
  switch (injector_.Draw()) {
    case Injected::Throttle:
      ++throttled_;
      return Refuse(&service, request, ThrottlingError(service.protocol()));
    case Injected::Fault:
      ++faults_;
      return Refuse(&service, request,
                    InternalError(service.protocol(), "We encountered an internal error. Please try again."));
    case Injected::None:
      break;
  }
  return Dispatch(service, request);
}

std::optional<std::string> ApiFrontEnd::SecretOf(const std::string& access_key) {
  if (access_key == settings_.access_key) return settings_.secret_key;
  std::lock_guard lock(world_mutex_);
  std::optional<Json> key = world_.Get("access_key", access_key);
  if (!key || !key->contains("secret_access_key") || !(*key)["secret_access_key"].is_string())
    return std::nullopt;
  return (*key)["secret_access_key"].get<std::string>();
}

Response ApiFrontEnd::Dispatch(Service& service, const Request& request) {
  std::lock_guard lock(world_mutex_);
  ServiceContext ctx{world_, request, settings_, std::chrono::system_clock::now(),
                     cluster_endpoint_base_, cluster_ca_pem_};
  auto rollback = [&] {
    try {
      world_.Rollback();
    } catch (...) {  // nothing left to undo (a failed COMMIT may have ended the transaction)
    }
  };
  try {
    world_.Begin();
    Response response = service.Handle(ctx);
    bool changed = world_.Changed();
    world_.Commit();
    if (changed && injector_.LoseReply()) {
      ++lost_replies_;
      return Refuse(&service, request,
                    InternalError(service.protocol(), "We encountered an internal error. Please try again."));
    }
    return response;
  } catch (const ApiError& e) {
    rollback();
    return Refuse(&service, request, e.Info());
  } catch (const std::exception& e) {
    rollback();
    return Refuse(&service, request, InternalError(service.protocol(), e.what()));
  } catch (...) {
    rollback();
    return Refuse(&service, request, InternalError(service.protocol(), "unknown failure"));
  }
}

Response ApiFrontEnd::Refuse(const Service* service, const Request& request,
                             const ErrorInfo& error) const {
  Protocol protocol = service ? service->protocol() : GuessProtocol(request);
  return RenderError(protocol, request.service, error, request.request_id, request.method);
}

SandboxStats ApiFrontEnd::stats() const {
  return SandboxStats{calls_.load(), throttled_.load(), faults_.load(), bad_signatures_.load(),
                      lost_replies_.load()};
}

}  // namespace strata::sandbox
