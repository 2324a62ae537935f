#include "sandbox/listener.h"

namespace strata::sandbox {

void Configure(httplib::Server& server, size_t workers) {
  // SO_REUSEADDR lets a restarted sandbox take its port back at once; httplib's default
  // SO_REUSEPORT would also let a second sandbox share a taken port, silently.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  // A reply goes out in more than one write (headers, then body); with Nagle's algorithm
  // the second waits for the client's delayed ACK, 40 ms per call on Linux loopback.
  server.set_tcp_nodelay(true);
  server.new_task_queue = [workers] { return new httplib::ThreadPool(workers); };
  server.set_keep_alive_timeout(5);
}

}  // namespace strata::sandbox
