#pragma once
// Helpers shared by the function families: argument checking and conversion (every error is a
// FunctionError naming the argument), UTF-8 handling, type unification and file access.
// Private to engine/expr/functions/.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/expr/function.h"
#include "engine/value/value.h"

namespace strata::functions {

using Args = std::vector<Value>;

//! Registers `name` taking between `min_args` and `max_args` (-1: variadic) arguments; the
//! flags are FunctionSpec's.
void Define(FunctionTable& table, const std::string& name, int min_args, int max_args,
            FunctionImpl impl, bool accepts_unknown = false, bool handles_marks = false);

//! Registers a function of one string argument returning a string (lower, sha256, ...).
//! Registers a function that works on the structure of its arguments (keys, merge, concat,
//! tolist ...): it runs when every argument is itself known, even if elements inside are
//! unknown, which pass through to the result as they do in Terraform.
void DefineStructural(FunctionTable& table, const std::string& name, int min_args, int max_args,
                      FunctionImpl impl);
void DefineStringFunction(FunctionTable& table, const std::string& name,
                          std::function<std::string(const std::string&)> fn);

//! Throws FunctionError{message, index}.
[[noreturn]] void Fail(int index, std::string message);

//! Rejects null for argument `index`.
const Value& NotNull(const Args& args, int index);

//! The argument converted as Terraform converts it implicitly (numbers and bools to strings,
//! numeric strings to numbers, "true"/"false" to bools). Null and other kinds are errors.
std::string StringArg(const Args& args, int index);
double NumberArg(const Args& args, int index);
//! The number itself, at Terraform's precision.
Number ExactNumberArg(const Args& args, int index);
//! A number that must be whole ("... must be a whole number").
int64_t IntegerArg(const Args& args, int index);

//! A list, tuple or set (its elements) / a map or object (its attributes).
const ValueList& SequenceArg(const Args& args, int index);
const ValueMap& MappingArg(const Args& args, int index);

//! Converts an element to a string / number; `where` prefixes the message ("element 2").
std::string ToStringElement(const Value& v, int index, const std::string& where);
double ToNumberElement(const Value& v, int index, const std::string& where);
Number ToExactNumberElement(const Value& v, int index, const std::string& where);
bool ToBoolElement(const Value& v, int index, const std::string& where);

//! Terraform's type unification for the elements of one collection: primitives of mixed kinds
//! become strings; anything else must already agree in kind. Nulls and unknowns stay as they are.
//! Throws FunctionError (arg `index`) when the elements cannot share one type.
ValueList UnifyElements(const ValueList& items, int index);

//! A list of strings.
Value StringList(const std::vector<std::string>& items);

// UTF-8: decoding to code points (invalid bytes become U+FFFD), encoding and validation.
std::vector<char32_t> DecodeUtf8(const std::string& s);
std::string EncodeUtf8(const std::u32string& cps);
std::string EncodeUtf8(const std::vector<char32_t>& cps);
bool IsValidUtf8(const std::string& s);
//! The offset of the first byte that does not start a valid UTF-8 sequence, or npos.
size_t FirstInvalidUtf8(const std::string& s);
//! The length in bytes of the UTF-8 sequence at s[i] (i < s.size()), or 0 when the bytes
//! there are not valid UTF-8.
size_t Utf8SequenceLength(const std::string& s, size_t i);

//! Terraform's jsonencode: compact, and with <, > and & escaped as \u003c etc. like Go's encoder.
std::string JsonEncode(const Value& v);

//! Resolves `path` against ctx.base_dir unless it is absolute.
std::string ResolvePath(const FunctionContext& ctx, const std::string& path);
//! Reads a regular file, throwing FunctionError (arg `index`) naming the resolved path.
std::string ReadFileArg(const Args& args, int index, const FunctionContext& ctx);
//! Reads the regular file at `path` (already resolved), as ReadFileArg does.
std::string ReadFileAt(const std::string& path, int index);

// Templates, as templatefile renders them (ctx.render_template).
//! The variables of a template from argument `index`: a map or object, or null for none
//! (an empty object). Anything else is an error naming the argument.
Value TemplateVarsArg(const Args& args, int index);
//! Fails (the whole call) when `ctx` cannot render templates; `function` names the caller.
void RequireTemplateRenderer(const FunctionContext& ctx, const std::string& function);

}  // namespace strata::functions
