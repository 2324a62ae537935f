#include "state/postgres/pg_pool.h"

#include <unistd.h>

namespace strata::state::pg {

ConnectionPool& ConnectionPool::Process() {
  static ConnectionPool* pool = new ConnectionPool;
  return *pool;
}

std::string ConnectionPool::Key(const std::string& conninfo, const std::string& schema, bool read_only) {
  return conninfo + '\n' + schema + (read_only ? "\nro" : "\nrw");
}

void ConnectionPool::SetAsideInheritedLocked() {
  if (pid_ == getpid()) return;
  for (auto& [key, idle] : idle_) {
    for (auto& conn : idle) inherited_.push_back(std::move(conn));
  }
  idle_.clear();
  pid_ = getpid();
}

std::unique_ptr<Connection> ConnectionPool::Acquire(const std::string& conninfo, const std::string& schema,
                                                    bool read_only) {
  const std::string key = Key(conninfo, schema, read_only);
  for (;;) {
    std::unique_ptr<Connection> conn;
    {
      std::lock_guard<std::mutex> hold(mu_);
      SetAsideInheritedLocked();
      auto& idle = idle_[key];
      if (idle.empty()) break;
      conn = std::move(idle.back());
      idle.pop_back();
    }
    try {
      conn->Query("SELECT 1");  // one round trip: far less than a new connection
      return conn;
    } catch (const PgError&) {
      // Dropped while idle: closed here, and the next one tried.
    }
  }
  auto conn = Connection::Open(conninfo, schema);
  std::lock_guard<std::mutex> hold(mu_);
  ++opened_;
  return conn;
}

void ConnectionPool::Release(const std::string& conninfo, const std::string& schema, bool read_only,
                             std::unique_ptr<Connection> conn) {
  if (!conn || !conn->Connected()) return;
  std::lock_guard<std::mutex> hold(mu_);
  SetAsideInheritedLocked();
  auto& idle = idle_[Key(conninfo, schema, read_only)];
  if (idle.size() < kMaxIdle) idle.push_back(std::move(conn));
}

int64_t ConnectionPool::opened() {
  std::lock_guard<std::mutex> hold(mu_);
  return opened_;
}

}  // namespace strata::state::pg
