#include "engine/expr/functions/util.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>

#include "engine/base/file.h"
#include "engine/value/json.h"
#include "engine/value/type.h"

namespace strata::functions {
namespace {

bool IsPrimitive(const Value& v) { return v.IsString() || v.IsNumber() || v.IsBool(); }

Value ConvertPrimitiveArg(const Value& v, Type::Kind kind, int index, const std::string& where) {
  if (v.IsNull()) Fail(index, where.empty() ? "argument must not be null" : where + " is null");
  ConversionResult r = ConvertValue(v, Type::Primitive(kind));
  if (!r.ok()) Fail(index, where.empty() ? r.error : where + ": " + r.error);
  return r.value;
}

// Decodes the code point at s[i]; returns its length in bytes, or 0 if the bytes there are not
// valid UTF-8 (overlong forms and surrogates included).
size_t DecodeOne(const std::string& s, size_t i, char32_t& cp) {
  unsigned char c = s[i];
  size_t extra = c < 0x80           ? 0
                 : (c >> 5) == 0x6  ? 1
                 : (c >> 4) == 0xE  ? 2
                 : (c >> 3) == 0x1E ? 3
                                    : 4;
  if (extra == 4 || i + extra >= s.size() + (extra == 0)) return 0;
  cp = extra == 0 ? c : c & (0x3F >> extra);
  for (size_t k = 1; k <= extra; ++k) {
    unsigned char cc = s[i + k];
    if ((cc & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (cc & 0x3F);
  }
  static const char32_t kMin[] = {0, 0x80, 0x800, 0x10000};
  if (cp < kMin[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return extra + 1;
}

}  // namespace

void Define(FunctionTable& table, const std::string& name, int min_args, int max_args,
            FunctionImpl impl, bool accepts_unknown, bool handles_marks) {
  FunctionSpec spec;
  spec.name = name;
  spec.min_args = min_args;
  spec.max_args = max_args;
  spec.accepts_unknown = accepts_unknown;
  spec.handles_marks = handles_marks;
  spec.impl = std::move(impl);
  table.Register(std::move(spec));
}

void DefineStructural(FunctionTable& table, const std::string& name, int min_args, int max_args,
                      FunctionImpl impl) {
  auto guarded = [impl = std::move(impl)](const std::vector<Value>& args, const FunctionContext& ctx) {
    for (const auto& a : args) {
      if (a.IsUnknown()) return Value::Unknown();
    }
    return impl(args, ctx);
  };
  Define(table, name, min_args, max_args, std::move(guarded), /*accepts_unknown=*/true);
}

void DefineStringFunction(FunctionTable& table, const std::string& name,
                          std::function<std::string(const std::string&)> fn) {
  Define(table, name, 1, 1, [fn = std::move(fn)](const Args& args, const FunctionContext&) {
    return Value::String(fn(StringArg(args, 0)));
  });
}

void Fail(int index, std::string message) { throw FunctionError{std::move(message), index}; }

const Value& NotNull(const Args& args, int index) {
  const Value& v = args.at(index);
  if (v.IsNull()) Fail(index, "argument must not be null");
  return v;
}

std::string StringArg(const Args& args, int index) {
  return ToStringElement(args.at(index), index, "");
}

double NumberArg(const Args& args, int index) { return ToNumberElement(args.at(index), index, ""); }

Number ExactNumberArg(const Args& args, int index) {
  return ToExactNumberElement(args.at(index), index, "");
}

int64_t IntegerArg(const Args& args, int index) {
  Number n = ExactNumberArg(args, index);
  if (!n.IsInteger()) Fail(index, fmt::format("a whole number is required, got {}", FormatNumber(n)));
  std::optional<int64_t> i = n.ToInt64();
  if (!i || *i > 9007199254740992 || *i < -9007199254740992) Fail(index, "number is too large");
  return *i;
}

const ValueList& SequenceArg(const Args& args, int index) {
  const Value& v = NotNull(args, index);
  if (!v.IsSequence())
    Fail(index, fmt::format("a list, set or tuple is required, got {}", v.TypeName()));
  return v.AsList();
}

const ValueMap& MappingArg(const Args& args, int index) {
  const Value& v = NotNull(args, index);
  if (!v.IsMapping()) Fail(index, fmt::format("a map or object is required, got {}", v.TypeName()));
  return v.AsMap();
}

std::string ToStringElement(const Value& v, int index, const std::string& where) {
  return ConvertPrimitiveArg(v, Type::Kind::String, index, where).AsString();
}

double ToNumberElement(const Value& v, int index, const std::string& where) {
  return ConvertPrimitiveArg(v, Type::Kind::Number, index, where).AsNumber();
}

Number ToExactNumberElement(const Value& v, int index, const std::string& where) {
  return ConvertPrimitiveArg(v, Type::Kind::Number, index, where).AsExactNumber();
}

bool ToBoolElement(const Value& v, int index, const std::string& where) {
  return ConvertPrimitiveArg(v, Type::Kind::Bool, index, where).AsBool();
}

ValueList UnifyElements(const ValueList& items, int index) {
  bool any_primitive = false;
  bool any_other = false;
  bool mixed = false;
  const Value* first = nullptr;
  for (const auto& item : items) {
    if (item.IsNull() || item.IsUnknown()) continue;
    if (IsPrimitive(item)) {
      any_primitive = true;
      if (first && first->kind() != item.kind()) mixed = true;
      if (!first) first = &item;
    } else {
      any_other = true;
    }
  }
  if (any_primitive && any_other) Fail(index, "all elements must have the same type");
  if (!mixed) return items;
  ValueList out;
  out.reserve(items.size());
  for (const auto& item : items) {
    out.push_back(IsPrimitive(item) ? ConvertValue(item, Type::Primitive(Type::Kind::String)).value
                                    : item);
  }
  return out;
}

Value StringList(const std::vector<std::string>& items) {
  ValueList out;
  out.reserve(items.size());
  for (const auto& s : items) out.push_back(Value::String(s));
  return Value::List(std::move(out));
}

std::vector<char32_t> DecodeUtf8(const std::string& s) {
  std::vector<char32_t> out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    size_t n = DecodeOne(s, i, cp);
    out.push_back(n ? cp : 0xFFFD);
    i += n ? n : 1;
  }
  return out;
}

std::string EncodeUtf8(const std::vector<char32_t>& cps) {
  std::string out;
  out.reserve(cps.size());
  for (char32_t cp : cps) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  return out;
}

std::string EncodeUtf8(const std::u32string& cps) {
  return EncodeUtf8(std::vector<char32_t>(cps.begin(), cps.end()));
}

bool IsValidUtf8(const std::string& s) { return FirstInvalidUtf8(s) == std::string::npos; }

size_t FirstInvalidUtf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    size_t n = Utf8SequenceLength(s, i);
    if (!n) return i;
    i += n;
  }
  return std::string::npos;
}

size_t Utf8SequenceLength(const std::string& s, size_t i) {
  char32_t cp = 0;
  return DecodeOne(s, i, cp);
}

namespace {

// Compact JSON of a value, numbers in Terraform's text (exact: 1e+500 is its 501 digits,
// 0.1 is 0.1); strings escaped as nlohmann escapes them.
void AppendJson(const Value& v, std::string& out) {
  auto string = [&out](const std::string& s) {
    out += nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  switch (v.kind()) {
    case ValueKind::Null:
    case ValueKind::Unknown: out += "null"; return;
    case ValueKind::Bool: out += v.AsBool() ? "true" : "false"; return;
    case ValueKind::Number: {
      const Number& n = v.AsExactNumber();
      out += n.IsInfinite() || n.IsNaN() ? "null" : FormatNumber(n);
      return;
    }
    case ValueKind::String: string(v.AsString()); return;
    case ValueKind::List:
    case ValueKind::Tuple:
    case ValueKind::Set: {
      out += '[';
      bool first = true;
      for (const auto& e : v.AsList()) {
        if (!first) out += ',';
        first = false;
        AppendJson(e, out);
      }
      out += ']';
      return;
    }
    case ValueKind::Map:
    case ValueKind::Object: {
      out += '{';
      bool first = true;
      for (const auto& [k, e] : v.AsMap()) {
        if (!first) out += ',';
        first = false;
        string(k);
        out += ':';
        AppendJson(e, out);
      }
      out += '}';
      return;
    }
  }
}

}  // namespace

std::string JsonEncode(const Value& v) {
  std::string text;
  AppendJson(v, text);
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '<':
        out += "\\u003c";
        break;
      case '>':
        out += "\\u003e";
        break;
      case '&':
        out += "\\u0026";
        break;
      default:
        out += c;
    }
  }
  // Go's encoder also escapes the JavaScript line terminators U+2028 and U+2029.
  const std::pair<char32_t, const char*> kLineTerminators[] = {{U'\u2028', "\\u2028"},
                                                               {U'\u2029', "\\u2029"}};
  for (const auto& [cp, escape] : kLineTerminators) {
    std::string raw = EncodeUtf8(std::vector<char32_t>{cp});
    for (size_t pos = out.find(raw); pos != std::string::npos; pos = out.find(raw, pos)) {
      out.replace(pos, raw.size(), escape);
    }
  }
  return out;
}

std::string ResolvePath(const FunctionContext& ctx, const std::string& path) {
  std::filesystem::path p(path);
  if (p.is_absolute() || ctx.base_dir.empty()) return p.lexically_normal().string();
  return (std::filesystem::path(ctx.base_dir) / p).lexically_normal().string();
}

std::string ReadFileArg(const Args& args, int index, const FunctionContext& ctx) {
  return ReadFileAt(ResolvePath(ctx, StringArg(args, index)), index);
}

std::string ReadFileAt(const std::string& path, int index) {
  std::error_code ec;
  auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    Fail(index,
         fmt::format("no file exists at \"{}\"; this function works only with files that are "
                     "distributed as part of the configuration source code, so if this file will "
                     "be created by a resource in this configuration you must instead obtain this "
                     "result from an attribute of that resource",
                     path));
  }
  if (std::filesystem::is_directory(status))
    Fail(index, fmt::format("\"{}\" is a directory, not a file", path));
  std::optional<std::string> text = base::ReadFile(path);
  if (!text) Fail(index, fmt::format("failed to read \"{}\"", path));
  return std::move(*text);
}

Value TemplateVarsArg(const Args& args, int index) {
  const Value& vars = args[index];
  if (vars.IsNull()) return Value::Object({});
  if (!vars.IsMapping()) {
    Fail(index, fmt::format("invalid vars value: a map or object is required, got {}", vars.TypeName()));
  }
  return vars;
}

void RequireTemplateRenderer(const FunctionContext& ctx, const std::string& function) {
  if (!ctx.render_template) {
    Fail(-1, fmt::format("{} is not available here: templates cannot be rendered in this context", function));
  }
}

}  // namespace strata::functions
