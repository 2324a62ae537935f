#pragma once
// The sandbox's world: every object it has made, as JSON documents keyed by kind and id,
// kept in SQLite so a later process sees what an earlier one made.
//
// Not thread-safe by itself: the server runs one request's service logic at a time, inside
// Begin/Commit (Rollback when the request fails, so a refused call leaves no trace).

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/base/random.h"

namespace strata::sqlite {
class Database;
}

namespace strata::sandbox {

using Json = nlohmann::json;

class World {
 public:
  //! Opens the world at `path` (created if missing, with its directory, mode 0600: it holds
  //! the CA's private key; empty: in memory). Opening an existing world writes nothing. Throws
  //! std::runtime_error with a message naming the file when SQLite cannot open it.
  static std::unique_ptr<World> Open(const std::string& path);
  ~World();

  void Begin();
  void Commit();
  void Rollback();
  //! True when the transaction since the last Begin wrote something (Put, Erase, SetSetting).
  bool Changed() const { return changed_; }

  std::optional<Json> Get(const std::string& kind, const std::string& id) const;
  //! Inserts or replaces. Insertion order is kept: List returns objects oldest first.
  void Put(const std::string& kind, const std::string& id, const Json& object);
  //! False when there was nothing to erase.
  bool Erase(const std::string& kind, const std::string& id);
  std::vector<std::pair<std::string, Json>> List(const std::string& kind) const;
  //! The objects of `kind` whose id starts with `prefix`, in id order (an index range scan:
  //! the Kubernetes API lists one type, or one namespace of it, among a cluster's objects,
  //! in key order as etcd returns them).
  std::vector<std::pair<std::string, Json>> ListPrefix(const std::string& kind, const std::string& prefix) const;
  //! ListPrefix's objects whose text member at `json_path` (SQLite's "$.spec.type") equals
  //! `value`; filtered by the database, so the others are never parsed.
  std::vector<std::pair<std::string, Json>> ListPrefixWhere(const std::string& kind, const std::string& prefix,
                                                            const std::string& json_path,
                                                            const std::string& value) const;

  //! A fresh AWS-shaped id: "<prefix>-" and 17 lower-case hex digits ("vpc-0a1b2c...").
  std::string NewId(const std::string& prefix);
  //! A fresh version-4 UUID (request ids, EKS cluster/node group ids).
  std::string NewUuid();
  //! `n` random characters from `alphabet` (IAM's "AROA..." ids, EKS endpoints).
  std::string RandomString(size_t n, const std::string& alphabet);

  //! Small persisted settings of the world itself (e.g. its CA), by name.
  std::optional<std::string> Setting(const std::string& name) const;
  void SetSetting(const std::string& name, const std::string& value);

  using Settings = std::map<std::string, std::string>;
  //! The settings `names`, all recorded. When one is missing (a new world), `make()`
  //! supplies them and they are recorded first — checked again and written in one write
  //! transaction, so when two processes start on a new world at once, one set wins and
  //! both get it. When they are all recorded, nothing is written.
  Settings SettingsOnce(const std::vector<std::string>& names, const std::function<Settings()>& make);

 private:
  explicit World(std::unique_ptr<sqlite::Database> db);

  std::unique_ptr<sqlite::Database> db_;
  base::SystemRandom random_;
  bool changed_ = false;
};

}  // namespace strata::sandbox
