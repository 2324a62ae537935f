#include "sandbox/sandbox.h"

#include <cstdlib>
#include <optional>

#include <chrono>
#include <mutex>
#include <thread>

#include <httplib.h>

#include "sandbox/api_frontend.h"
#include "sandbox/cluster_endpoint.h"
#include "sandbox/cluster_tls.h"
#include "sandbox/world.h"

namespace strata::sandbox {
namespace {

// Enough workers that kept-alive client connections (each holds one while idle) do not
// starve new ones: apply runs ten workers, the AWS CLI and kubectl come on top.
constexpr size_t kWorkerThreads = 32;

// Binds `server` to host:port (0: any free port). Returns the port, or -1.
int Bind(httplib::Server& server, const std::string& host, int port) {
  if (port == 0) return server.bind_to_any_port(host);
  return server.bind_to_port(host, port) ? port : -1;
}

// The cluster endpoint's port: the one given, else the one this world used last (the
// endpoints recorded in clusters, state and kubeconfigs stay valid across restarts), else
// any free port. The port used is remembered in the world.
int BindClusterPort(httplib::Server& server, const std::string& host, int port, World& world) {
  int bound = -1;
  if (port == 0) {
    if (std::optional<std::string> last = world.Setting("cluster_port")) {
      int remembered = std::atoi(last->c_str());
      if (remembered > 0) bound = Bind(server, host, remembered);
    }
  }
  if (bound < 0) bound = Bind(server, host, port);
  if (bound > 0) world.SetSetting("cluster_port", std::to_string(bound));
  return bound;
}

// Serves on a thread; returns once the accept loop runs, so that Stop() cannot miss it.
std::thread Serve(httplib::Server& server) {
  std::thread thread([&server] { server.listen_after_bind(); });
  while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return thread;
}

void Configure(httplib::Server& server) {
  // SO_REUSEADDR lets a restarted sandbox take its port back at once; httplib's default
  // SO_REUSEPORT would also let a second sandbox share a taken port, silently.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  server.new_task_queue = [] { return new httplib::ThreadPool(kWorkerThreads); };
  server.set_keep_alive_timeout(5);
}

}  // namespace

struct Sandbox::Impl {
  explicit Impl(SandboxSettings s) : settings(std::move(s)) {}

  SandboxSettings settings;
  std::mutex world_mutex;  // guards `world`, which is not thread-safe
  std::unique_ptr<World> world;
  std::unique_ptr<ApiFrontEnd> front_end;
  std::unique_ptr<httplib::Server> api_server;
  std::unique_ptr<httplib::SSLServer> cluster_server;
  std::thread api_thread;
  std::thread cluster_thread;
  int port = 0;
  int cluster_port = 0;
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
    s.cluster_server = std::make_unique<httplib::SSLServer>(server_cert.cert.get(), server_cert.key.get());
    if (!s.cluster_server->is_valid()) throw std::runtime_error("cannot set up TLS for the cluster endpoint");
    Configure(*s.cluster_server);
    ServeClusterEndpoint(*s.cluster_server);
    s.cluster_port = BindClusterPort(*s.cluster_server, host, s.settings.cluster_port, *s.world);
    if (s.cluster_port < 0)
      throw std::runtime_error("cannot listen on " + host + ":" + std::to_string(s.settings.cluster_port) +
                               " for the cluster endpoint (port in use?)");

    s.api_server = std::make_unique<httplib::Server>();
    Configure(*s.api_server);
    s.front_end = std::make_unique<ApiFrontEnd>(s.settings, *s.world, s.world_mutex, cluster_url(), s.ca_pem);
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
    s.port = Bind(*s.api_server, host, s.settings.port);
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
  return "https://" + impl_->settings.host + ":" + std::to_string(impl_->cluster_port);
}

std::string Sandbox::ca_pem() const { return impl_->ca_pem; }

const SandboxSettings& Sandbox::settings() const { return impl_->settings; }

SandboxStats Sandbox::stats() const { return impl_->front_end ? impl_->front_end->stats() : SandboxStats{}; }

}  // namespace strata::sandbox
