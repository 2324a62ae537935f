#include "sandbox/cluster_port.h"

#include <stdexcept>

#include "sandbox/world.h"

namespace strata::sandbox {
namespace {

constexpr const char* kSetting = "cluster_port";

// A recorded port, or 0 when there is none (or it is not a port).
int ParsePort(const std::optional<std::string>& text) {
  if (!text) return 0;
  try {
    int port = std::stoi(*text);
    return port > 0 && port < 65536 ? port : 0;
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace

ClusterPort BindClusterPort(Listener<httplib::SSLServer>& server, const std::string& host, int requested,
                            World& world) {
  int recorded = ParsePort(world.Setting(kSetting));
  if (recorded > 0 && requested > 0 && requested != recorded) {
    throw std::runtime_error("this world's EKS cluster endpoints are on port " + std::to_string(recorded) +
                             ", chosen when the world was made; --cluster-port " + std::to_string(requested) +
                             " would leave them unserved: leave --cluster-port out (or pass " +
                             std::to_string(recorded) + "), or serve another world with --state FILE");
  }
  ClusterPort port;
  int wanted = recorded > 0 ? recorded : requested;
  port.served = server.Bind(host, wanted);
  if (port.served < 0 && recorded > 0) port.served = server.Bind(host, 0);
  if (port.served < 0) {
    throw std::runtime_error("cannot listen on " + host + ":" + std::to_string(wanted) +
                             " for the cluster endpoint (port in use?)");
  }
  if (recorded > 0) {
    port.recorded = recorded;
  } else {
    World::Settings stored = world.SettingsOnce(
        {kSetting}, [&] { return World::Settings{{kSetting, std::to_string(port.served)}}; });
    port.recorded = ParsePort(stored.at(kSetting));
    if (port.recorded == 0) port.recorded = port.served;  // an unreadable value recorded meanwhile
  }
  return port;
}

}  // namespace strata::sandbox
