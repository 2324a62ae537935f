#pragma once
// The builtin provider's internal shape: its types are ResourceTypes (providers/
// resource_type.h) that meet the machine only through BuiltinEnv, so tests control the
// clock, randomness, files and processes. BuiltinProvider dispatches to them by name.

#include <memory>

#include "engine/base/clock.h"
#include "engine/base/random.h"
#include "providers/builtin/file_system.h"
#include "providers/process/process_runner.h"
#include "providers/resource_type.h"

namespace strata {

//! The outside world as the builtin types see it.
struct BuiltinEnv {
  std::shared_ptr<base::RandomSource> random;
  std::shared_ptr<base::Clock> clock;
  std::shared_ptr<FileSystem> files;
  std::shared_ptr<ProcessRunner> processes;

  //! OpenSSL randomness, the system clock, the local disk, posix_spawn.
  static BuiltinEnv Real();
};

//! A builtin resource type: a ResourceType with the outside world at hand.
class BuiltinResourceType : public ResourceType {
 public:
  explicit BuiltinResourceType(BuiltinEnv env) : env_(std::move(env)) {}

 protected:
  BuiltinEnv env_;
};

//! A builtin data source type.
class BuiltinDataSourceType : public DataSourceType {
 public:
  explicit BuiltinDataSourceType(BuiltinEnv env) : env_(std::move(env)) {}

 protected:
  BuiltinEnv env_;
};

// Factories, one per file.
std::unique_ptr<ResourceType> NewNullResource(BuiltinEnv env);
std::unique_ptr<ResourceType> NewTerraformData(BuiltinEnv env);
std::unique_ptr<ResourceType> NewRandomId(BuiltinEnv env);
std::unique_ptr<ResourceType> NewRandomString(BuiltinEnv env);
std::unique_ptr<ResourceType> NewRandomPassword(BuiltinEnv env);
std::unique_ptr<ResourceType> NewRandomInteger(BuiltinEnv env);
std::unique_ptr<ResourceType> NewRandomUuid(BuiltinEnv env);
std::unique_ptr<ResourceType> NewRandomShuffle(BuiltinEnv env);
std::unique_ptr<ResourceType> NewRandomPet(BuiltinEnv env);
std::unique_ptr<ResourceType> NewLocalFile(BuiltinEnv env);
std::unique_ptr<ResourceType> NewLocalSensitiveFile(BuiltinEnv env);
std::unique_ptr<ResourceType> NewTimeSleep(BuiltinEnv env);
std::unique_ptr<ResourceType> NewTimeStatic(BuiltinEnv env);
std::unique_ptr<ResourceType> NewTimeRotating(BuiltinEnv env);
std::unique_ptr<ResourceType> NewExec(BuiltinEnv env);
std::unique_ptr<DataSourceType> NewLocalFileData(BuiltinEnv env);

}  // namespace strata
