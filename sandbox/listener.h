#pragma once
// How the sandbox's servers listen: on loopback, never sharing a taken port, with an accept
// queue and a worker pool that fit an apply at -parallelism=50 with the AWS CLI and
// kubectl on top.
//
// Debian's cpp-httplib is a compiled library: its listen() backlog (CPPHTTPLIB_LISTEN_BACKLOG,
// 5) is fixed when the library is built, and a burst of new connections beyond it has its
// SYNs dropped (each retried a second later). Calling listen() again on the bound socket
// is how Linux changes a listening socket's backlog, so Listener does that after binding.

#include <sys/socket.h>

#include <cstddef>
#include <string>

#include <httplib.h>

namespace strata::sandbox {

//! Connections waiting to be accepted (the kernel caps it at net.core.somaxconn).
constexpr int kListenBacklog = 256;

//! A cpp-httplib server (httplib::Server or httplib::SSLServer) that binds with a wide
//! accept queue.
template <class Server>
class Listener : public Server {
 public:
  using Server::Server;

  //! Binds host:port (0: any free port) and listens with kListenBacklog. Returns the
  //! port, or -1 when it cannot be bound.
  int Bind(const std::string& host, int port) {
    int bound = port == 0 ? this->bind_to_any_port(host) : (this->bind_to_port(host, port) ? port : -1);
    if (bound > 0) ::listen(this->svr_sock_, kListenBacklog);
    return bound;
  }
};

//! Socket options (no shared ports), `workers` threads, and the keep-alive timeout. Each
//! open client connection holds a worker while it is kept alive, so `workers` must exceed
//! the connections clients keep open at once.
void Configure(httplib::Server& server, size_t workers);

}  // namespace strata::sandbox
