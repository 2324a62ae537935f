#include "sandbox/sandbox.h"

#include <chrono>
#include <mutex>
#include <thread>

#include <httplib.h>

#include "sandbox/api_frontend.h"
#include "sandbox/cluster_endpoint.h"
#include "sandbox/cluster_port.h"
#include "sandbox/cluster_tls.h"
#include "sandbox/listener.h"
#include "sandbox/world.h"

namespace strata::sandbox {
namespace {

// Each client connection kept alive holds a worker (see listener.h): an apply at
// -parallelism=50 keeps up to 50, and the AWS CLI and kubectl come on top.
constexpr size_t kApiWorkers = 128;
// The cluster endpoint: kubectl and, later, the Kubernetes provider.
constexpr size_t kClusterWorkers = 32;

// Serves on a thread; returns once the accept loop runs, so that Stop() cannot miss it.
std::thread Serve(httplib::Server& server) {
  std::thread thread([&server] { server.listen_after_bind(); });
  while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return thread;
}

}  // namespace

struct Sandbox::Impl {
  explicit Impl(SandboxSettings s) : settings(std::move(s)) {}

  SandboxSettings settings;
  std::mutex world_mutex;  // guards `world`, which is not thread-safe
  std::unique_ptr<World> world;
  std::unique_ptr<ApiFrontEnd> front_end;
  std::unique_ptr<Listener<httplib::Server>> api_server;
  std::unique_ptr<Listener<httplib::SSLServer>> cluster_server;
  std::thread api_thread;
  std::thread cluster_thread;
  int port = 0;
  ClusterPort cluster_port;
  std::string ca_pem;
};

Sandbox::Sandbox(SandboxSettings settings) : impl_(std::make_unique<Impl>(std::move(settings))) {}

Sandbox::~Sandbox() { Stop(); }

bool Sandbox::Start(std::string& error) {
  Stop();
  Impl& s = *impl_;
  const std::string& host = s.settings.host;
  try {
    s.world = World::Open(s.settings.state_path);
    CertificateAuthority ca = LoadOrCreateCa(*s.world);
    ServerCertificate server_cert = IssueServerCertificate(ca);
    s.ca_pem = ca.cert_pem;

    // httplib takes its own references to the certificate and key.
    s.cluster_server =
        std::make_unique<Listener<httplib::SSLServer>>(server_cert.cert.get(), server_cert.key.get());
    if (!s.cluster_server->is_valid()) throw std::runtime_error("cannot set up TLS for the cluster endpoint");
    Configure(*s.cluster_server, kClusterWorkers);
    ServeClusterEndpoint(*s.cluster_server, *s.world, s.world_mutex);
    s.cluster_port = BindClusterPort(*s.cluster_server, host, s.settings.cluster_port, *s.world);

    s.api_server = std::make_unique<Listener<httplib::Server>>();
    Configure(*s.api_server, kApiWorkers);
    s.front_end =
        std::make_unique<ApiFrontEnd>(s.settings, *s.world, s.world_mutex, recorded_cluster_url(), s.ca_pem);
    ApiFrontEnd* front_end = s.front_end.get();
    auto serve = [front_end](const httplib::Request& req, httplib::Response& res) {
      front_end->Serve(req, req.body, res);
    };
    // Bodies are read through a content reader: httplib refuses form bodies over 8 KB
    // (413) when it reads them itself, and query-protocol calls carry policies and user data.
    auto serve_body = [front_end](const httplib::Request& req, httplib::Response& res,
                                  const httplib::ContentReader& reader) {
      std::string body;
      if (!req.is_multipart_form_data()) {
        reader([&body](const char* data, size_t size) {
          body.append(data, size);
          return true;
        });
      }
      front_end->Serve(req, body, res);
    };
    const char* any = ".*";
    s.api_server->Get(any, serve).Options(any, serve);
    s.api_server->Post(any, serve_body).Put(any, serve_body).Patch(any, serve_body).Delete(any, serve_body);
    s.port = s.api_server->Bind(host, s.settings.port);
    if (s.port < 0)
      throw std::runtime_error("cannot listen on " + host + ":" + std::to_string(s.settings.port) +
                               " (port in use?)");
  } catch (const std::exception& e) {
    error = e.what();
    Stop();
    return false;
  }
  s.cluster_thread = Serve(*s.cluster_server);
  s.api_thread = Serve(*s.api_server);
  return true;
}

void Sandbox::Stop() {
  Impl& s = *impl_;
  if (s.api_thread.joinable()) {
    s.api_server->stop();
    s.api_thread.join();
  }
  if (s.cluster_thread.joinable()) {
    s.cluster_server->stop();
    s.cluster_thread.join();
  }
  s.api_server.reset();
  s.cluster_server.reset();
  // The front end stays for stats(); it is not called any more.
  std::lock_guard lock(s.world_mutex);
  s.world.reset();
}

int Sandbox::port() const { return impl_->port; }

std::string Sandbox::url() const { return "http://" + impl_->settings.host + ":" + std::to_string(impl_->port); }

std::string Sandbox::cluster_url() const {
  return "https://" + impl_->settings.host + ":" + std::to_string(impl_->cluster_port.served);
}

std::string Sandbox::recorded_cluster_url() const {
  return "https://" + impl_->settings.host + ":" + std::to_string(impl_->cluster_port.recorded);
}

std::string Sandbox::ca_pem() const { return impl_->ca_pem; }

const SandboxSettings& Sandbox::settings() const { return impl_->settings; }

SandboxStats Sandbox::stats() const { return impl_->front_end ? impl_->front_end->stats() : SandboxStats{}; }

}  // namespace strata::sandbox
