#include "providers/builtin/builtin_provider.h"

namespace strata {

using attrs::Error;

BuiltinProvider::BuiltinProvider(BuiltinEnv env) {
  for (auto factory : {NewNullResource, NewTerraformData, NewRandomId, NewRandomString, NewRandomPassword,
                       NewRandomInteger, NewRandomUuid, NewRandomShuffle, NewRandomPet, NewLocalFile,
                       NewLocalSensitiveFile, NewTimeSleep, NewTimeStatic, NewTimeRotating, NewExec}) {
    Add(factory(env));
  }
  Add(NewLocalFileData(env));
}

ResourceSchema BuiltinProvider::SettingsSchema() const {
  ResourceSchema settings;
  settings.type = "builtin";
  return settings;
}

Diagnostics BuiltinProvider::Configure(const OperationContext&, const Value&) { return {}; }

ApplyResult BuiltinProvider::CreateResource(const OperationContext& ctx, const std::string& type,
                                            const Value& planned) {
  ApplyResult result;
  ResourceType* t = FindResource(type, result.diags);
  if (!t) return result;
  // Computed attributes are unknown in the plan; the type fills them in. Anything else
  // still unknown is the engine's mistake.
  const ResourceSchema schema = t->Schema();
  Value known = planned;
  for (const auto& [name, a] : schema.attributes) {
    Value v = attrs::Get(planned, name);
    if (v.IsWhollyKnown()) continue;
    if (a.computed && v.IsUnknown()) {
      known = attrs::With(known, name, Value());
      continue;
    }
    result.diags = Error("Unknown value at apply",
                         "Attribute \"" + name + "\" of " + type +
                             " is still unknown when creating it; this is a bug in Strata.");
    return result;
  }
  return TypedProvider::CreateResource(ctx, type, known);
}

}  // namespace strata
