#include "sandbox/world.h"

#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "engine/base/sqlite.h"

namespace strata::sandbox {

using sqlite::Database;
using sqlite::SqliteError;
using sqlite::Statement;

namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS objects (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  body TEXT NOT NULL,
  UNIQUE (kind, id)
);
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
)sql";

// The (id, body) rows of a bound query, bodies parsed.
std::vector<std::pair<std::string, Json>> IdsAndObjects(Statement& q) {
  std::vector<std::pair<std::string, Json>> out;
  while (q.Step()) out.emplace_back(q.Text(0), Json::parse(q.Text(1)));
  return out;
}

}  // namespace

std::unique_ptr<World> World::Open(const std::string& path) {
  if (!path.empty()) {
    std::error_code ignored;  // a directory that cannot be made is reported by the open below
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ignored);
  }
  try {
    std::unique_ptr<Database> db = Database::Open(path.empty() ? ":memory:" : path, 5000);
    // Both are no-ops on an existing world (already WAL, tables there): only a new one is
    // written. Two processes starting on a new world at once race for its first write, and
    // SQLite answers one of them "locked" at once rather than wait where waiting could
    // deadlock: the loser tries again, and the schema is written under a write lock taken
    // up front (BEGIN IMMEDIATE waits its turn).
    for (int attempt = 1;; ++attempt) {
      try {
        db->Exec("PRAGMA journal_mode=WAL");
        break;
      } catch (const SqliteError&) {
        if (attempt == 50) throw;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    }
    db->Exec("BEGIN IMMEDIATE");
    db->Exec(kSchema);
    db->Exec("COMMIT");
    return std::unique_ptr<World>(new World(std::move(db)));
  } catch (const SqliteError& e) {
    throw std::runtime_error("cannot open the sandbox world " + path + ": " + e.what());
  }
}

World::World(std::unique_ptr<Database> db) : db_(std::move(db)) {}

World::~World() = default;

void World::Begin() {
  db_->Exec("BEGIN IMMEDIATE");
  changed_ = false;
}
void World::Commit() { db_->Exec("COMMIT"); }
void World::Rollback() { db_->Exec("ROLLBACK"); }

std::optional<Json> World::Get(const std::string& kind, const std::string& id) const {
  Statement& q = db_->Prepare("SELECT body FROM objects WHERE kind = ?1 AND id = ?2");
  q.Bind(1, kind).Bind(2, id);
  if (!q.Step()) return std::nullopt;
  Json object = Json::parse(q.Text(0));
  q.Reset();  // no statement left mid-result across a COMMIT
  return object;
}

void World::Put(const std::string& kind, const std::string& id, const Json& object) {
  // An update keeps the row (and so its place in List's order).
  Statement& update = db_->Prepare("UPDATE objects SET body = ?3 WHERE kind = ?1 AND id = ?2");
  update.Bind(1, kind).Bind(2, id).Bind(3, object.dump()).Run();
  changed_ = true;
  if (db_->Changes() > 0) return;
  Statement& insert = db_->Prepare("INSERT INTO objects (kind, id, body) VALUES (?1, ?2, ?3)");
  insert.Bind(1, kind).Bind(2, id).Bind(3, object.dump()).Run();
}

bool World::Erase(const std::string& kind, const std::string& id) {
  db_->Prepare("DELETE FROM objects WHERE kind = ?1 AND id = ?2").Bind(1, kind).Bind(2, id).Run();
  bool erased = db_->Changes() > 0;
  changed_ = changed_ || erased;
  return erased;
}

std::vector<std::pair<std::string, Json>> World::List(const std::string& kind) const {
  Statement& q = db_->Prepare("SELECT id, body FROM objects WHERE kind = ?1 ORDER BY seq");
  q.Bind(1, kind);
  return IdsAndObjects(q);
}

std::vector<std::pair<std::string, Json>> World::ListPrefix(const std::string& kind,
                                                            const std::string& prefix) const {
  // ids >= prefix and < prefix + U+10FFFF's first byte: every id that starts with prefix
  // (ids are UTF-8 text, compared bytewise), found through the (kind, id) index.
  Statement& q = db_->Prepare(
      "SELECT id, body FROM objects WHERE kind = ?1 AND id >= ?2 AND id < ?3 ORDER BY id");
  q.Bind(1, kind).Bind(2, prefix).Bind(3, prefix + "\xf4\x90");
  return IdsAndObjects(q);
}

std::vector<std::pair<std::string, Json>> World::ListPrefixWhere(const std::string& kind, const std::string& prefix,
                                                                 const std::string& json_path,
                                                                 const std::string& value) const {
  Statement& q = db_->Prepare(
      "SELECT id, body FROM objects WHERE kind = ?1 AND id >= ?2 AND id < ?3 AND json_extract(body, ?4) = ?5 "
      "ORDER BY id");
  q.Bind(1, kind).Bind(2, prefix).Bind(3, prefix + "\xf4\x90").Bind(4, json_path).Bind(5, value);
  return IdsAndObjects(q);
}

std::string World::RandomString(size_t n, const std::string& alphabet) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += alphabet[random_.Uniform(alphabet.size())];
  return out;
}

std::string World::NewId(const std::string& prefix) {
  return prefix + "-" + RandomString(17, "0123456789abcdef");
}

std::string World::NewUuid() { return random_.Uuid(); }

std::optional<std::string> World::Setting(const std::string& name) const {
  Statement& q = db_->Prepare("SELECT value FROM settings WHERE name = ?1");
  q.Bind(1, name);
  if (!q.Step()) return std::nullopt;
  std::string value = q.Text(0);
  q.Reset();
  return value;
}

void World::SetSetting(const std::string& name, const std::string& value) {
  db_->Prepare("INSERT OR REPLACE INTO settings (name, value) VALUES (?1, ?2)")
      .Bind(1, name)
      .Bind(2, value)
      .Run();
  changed_ = true;
}

World::Settings World::SettingsOnce(const std::vector<std::string>& names,
                                    const std::function<Settings()>& make) {
  auto recorded = [&]() -> std::optional<Settings> {
    Settings found;
    for (const std::string& name : names) {
      std::optional<std::string> value = Setting(name);
      if (!value) return std::nullopt;
      found[name] = *value;
    }
    return found;
  };
  if (std::optional<Settings> found = recorded()) return *found;
  Begin();  // BEGIN IMMEDIATE: another process starting on this world waits here
  try {
    std::optional<Settings> found = recorded();
    if (!found) {
      found = make();
      for (const std::string& name : names) SetSetting(name, found->at(name));
    }
    Commit();
    return *found;
  } catch (...) {
    Rollback();
    throw;
  }
}

}  // namespace strata::sandbox
