#pragma once
// Which port the https cluster endpoint listens on, and which one the world records.
//
// Cluster endpoints (DescribeCluster's `endpoint`, and so state and kubeconfigs) name the
// world's recorded port. It is chosen once, by the first sandbox to start on a new world,
// and no start ever moves it:
//  - recorded and free: served there;
//  - recorded but taken (typically another sandbox serving the same world, e.g. a
//    `strata plan -sandbox` while `strata sandbox serve` runs): this process serves its
//    cluster endpoint on a free port for its own lifetime; the world, and the endpoints
//    it describes, keep the recorded port (served by the other process);
//  - none recorded (a new world): the requested port (any when 0), recorded unless
//    another sandbox starting on the same world at once recorded its own first (then
//    that one is the world's, as above).
// Requesting a port other than the recorded one is an error: the recorded endpoints would
// no longer be served by this process, and moving them is not a start's business.

#include <string>

#include "sandbox/listener.h"

namespace strata::sandbox {

class World;

struct ClusterPort {
  int served = -1;    //!< where this process serves the cluster endpoint
  int recorded = -1;  //!< the world's: what cluster endpoints name
};

//! Binds `server` as described above. Throws std::runtime_error saying what to do.
ClusterPort BindClusterPort(Listener<httplib::SSLServer>& server, const std::string& host, int requested,
                            World& world);

}  // namespace strata::sandbox
