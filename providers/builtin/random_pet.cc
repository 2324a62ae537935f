// random_pet (hashicorp/random): a random pet name as `id`, from golang-petname's words
// (pet_words.h) as Terraform's: one word is a name ("koala"), two an adjective and a name
// ("happy-koala"), more put adverbs first ("quite-happy-koala"); words are joined with
// `separator` (default "-") and `prefix` goes first. `length` defaults to 2. Made once at
// create; any argument change (keepers included) replaces it. No import, as in Terraform.
#include "providers/builtin/pet_words.h"
#include "providers/builtin/resource_type.h"

namespace strata {
namespace {

using namespace attrs;

template <size_t N>
std::string PetWord(base::RandomSource& random, const std::array<std::string_view, N>& words) {
  return std::string(words[random.Uniform(N)]);
}

class RandomPet : public BuiltinResourceType {
 public:
  using BuiltinResourceType::BuiltinResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("random_pet", {{"length", OptionalComputed("number", true)},
                                        {"prefix", Optional("string", true)},
                                        {"separator", OptionalComputed("string", true)},
                                        {"keepers", Optional("map(string)", true)}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::StateOnly; }

  ApplyResult Create(const OperationContext&, const Value& planned) override {
    Value v = ApplyDefaults(planned);
    std::string separator = GetString(v, "separator");
    std::string pet = Generate(int64_t(GetNumber(v, "length").value_or(2)), separator);
    std::string prefix = GetString(v, "prefix");
    if (!prefix.empty()) pet = prefix + separator + pet;
    return {Normalize(CachedSchema(), With(v, "id", Value::String(pet))), {}};
  }

 protected:
  Value ApplyDefaults(const Value& in) const override {
    Value v = in;
    if (Get(v, "length").IsNull()) v = With(v, "length", Value::Number(2));
    if (Get(v, "separator").IsNull()) v = With(v, "separator", Value::String("-"));
    return v;
  }

 private:
  //! golang-petname's Generate: a name; an adjective and a name; or adverbs, an adjective
  //! and a name (a length below 1 gives two words, as there).
  std::string Generate(int64_t words, const std::string& separator) const {
    namespace pw = builtin::pet_words;
    base::RandomSource& random = *env_.random;
    if (words == 1) return PetWord(random, pw::kNames);
    std::string out;
    for (int64_t i = 0; i < words - 2; ++i) out += PetWord(random, pw::kAdverbs) + separator;
    out += PetWord(random, pw::kAdjectives) + separator;
    return out + PetWord(random, pw::kNames);
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewRandomPet(BuiltinEnv env) {
  return std::make_unique<RandomPet>(std::move(env));
}

}  // namespace strata
