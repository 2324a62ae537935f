// String functions: format, formatlist, join, split, case mapping, replace, regex, trimming,
// substr, ... Strings are UTF-8; lengths and offsets count Unicode code points.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "engine/expr/function.h"
#include "engine/expr/functions/regex.h"
#include "engine/expr/functions/graphemes.h"
#include "engine/expr/functions/util.h"

namespace strata {
namespace {

using functions::Args;
using functions::Define;
using functions::DefineStringFunction;
using functions::Fail;


// ---- format -------------------------------------------------------------------------------

// One parsed verb of a format string: %[flags][[argnum]][width][.precision]verb.
struct FormatVerb {
  bool minus = false, plus = false, space = false, zero = false, sharp = false;
  int width = -1;
  int precision = -1;
  char verb = 0;
  std::string text;  // as written, for messages
};

std::string Pad(std::string s, const FormatVerb& v) {
  size_t len = functions::GraphemeCount(s);
  if (v.width < 0 || len >= static_cast<size_t>(v.width)) return s;
  size_t pad = v.width - len;
  if (v.minus) return s + std::string(pad, ' ');
  if (!v.zero) return std::string(pad, ' ') + s;
  size_t sign = !s.empty() && (s[0] == '-' || s[0] == '+' || s[0] == ' ') ? 1 : 0;
  return s.substr(0, sign) + std::string(pad, '0') + s.substr(sign);
}

std::string SignPrefix(double n, const FormatVerb& v) {
  if (n < 0 || std::signbit(n)) return "";
  return v.plus ? "+" : v.space ? " " : "";
}

// Go's %g without a precision: the shortest representation, in exponent form when the
// exponent is < -4 or >= 6 (or the precision when one is given).
std::string FormatGeneral(double n, const FormatVerb& v) {
  if (v.precision >= 0) return fmt::format(fmt::runtime(fmt::format("{{:.{}g}}", v.precision)), n);
  char buf[64];
  auto sci = std::to_chars(buf, buf + sizeof(buf), n, std::chars_format::scientific);
  std::string scientific(buf, sci.ptr);
  int exponent = std::atoi(scientific.c_str() + scientific.find('e') + 1);
  if (exponent < -4 || exponent >= 6) return scientific;
  auto fixed = std::to_chars(buf, buf + sizeof(buf), n, std::chars_format::fixed);
  return std::string(buf, fixed.ptr);
}

std::string QuoteGo(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += fmt::format("\\x{:02x}", c);
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string FormatInteger(const Number& exact, const FormatVerb& v, int index) {
  if (!exact.IsInteger()) {
    Fail(index, fmt::format("unsupported value for \"{}\": an integer is required, got {}", v.text,
                            FormatNumber(exact)));
  }
  double n = exact.ToDouble();
  std::optional<int64_t> small = exact.ToInt64();
  if (!small) {
    // Beyond 64 bits: the exact integer, as Go formats a big.Int.
    int base = v.verb == 'b' ? 2 : v.verb == 'o' ? 8 : v.verb == 'x' || v.verb == 'X' ? 16 : 10;
    std::string digits = exact.Abs().ToIntegerString(base);
    if (v.verb == 'X') std::transform(digits.begin(), digits.end(), digits.begin(), ::toupper);
    return (n < 0 ? "-" : SignPrefix(n, v)) + digits;
  }
  int64_t i = *small;
  uint64_t magnitude = i < 0 ? static_cast<uint64_t>(-(i + 1)) + 1 : static_cast<uint64_t>(i);
  std::string digits;
  switch (v.verb) {
    case 'b':
      digits = fmt::format("{:b}", magnitude);
      break;
    case 'o':
      digits = fmt::format("{:o}", magnitude);
      break;
    case 'x':
      digits = fmt::format("{:x}", magnitude);
      break;
    case 'X':
      digits = fmt::format("{:X}", magnitude);
      break;
    default:
      digits = fmt::format("{}", magnitude);
  }
  return (i < 0 ? "-" : SignPrefix(n, v)) + digits;
}

std::string FormatOne(const FormatVerb& v, const Value& arg, int index) {
  if (arg.IsNull() && v.verb != 'v') {
    Fail(index,
         fmt::format("unsupported value for \"{}\": null value cannot be formatted", v.text));
  }
  auto where = [&] { return fmt::format("unsupported value for \"{}\"", v.text); };
  switch (v.verb) {
    case 'v':
      if (v.sharp || arg.IsNull() || arg.IsCollection()) return Pad(functions::JsonEncode(arg), v);
      if (arg.IsNumber())
        return Pad(SignPrefix(arg.AsNumber(), v) + FormatNumber(arg.AsExactNumber()), v);
      return Pad(functions::ToStringElement(arg, index, where()), v);
    case 't':
      return Pad(functions::ToBoolElement(arg, index, where()) ? "true" : "false", v);
    case 'd':
    case 'b':
    case 'o':
    case 'x':
    case 'X':
      return Pad(FormatInteger(functions::ToExactNumberElement(arg, index, where()), v, index), v);
    case 'e':
    case 'E':
    case 'f':
    case 'g':
    case 'G': {
      Number exact = functions::ToExactNumberElement(arg, index, where());
      double n = exact.ToDouble();
      std::string body;
      if (v.verb == 'f' && !exact.IsInfinite() && !exact.IsNaN()) {
        // The exact decimal at Terraform's precision, rounded to the precision asked.
        body = exact.ToFixed(v.precision >= 0 ? v.precision : 6);
      } else if (v.verb == 'g' || v.verb == 'G') {
        body = FormatGeneral(n, v);
        if (v.verb == 'G') std::transform(body.begin(), body.end(), body.begin(), ::toupper);
      } else {
        int precision = v.precision >= 0 ? v.precision : 6;
        body = fmt::format(fmt::runtime(fmt::format("{{:.{}{}}}", precision, v.verb)), n);
      }
      return Pad(SignPrefix(n, v) + body, v);
    }
    case 's':
    case 'q': {
      if (arg.IsCollection())
        Fail(index, where() + ": a string is required, got " + arg.TypeName());
      std::string s = functions::ToStringElement(arg, index, where());
      if (v.precision >= 0) {
        auto characters = functions::Graphemes(s);
        if (characters.size() > static_cast<size_t>(v.precision)) {
          s = std::string(s.data(), characters[v.precision].data() - s.data());
        }
      }
      return Pad(v.verb == 'q' ? QuoteGo(s) : s, v);
    }
    default:
      Fail(0, fmt::format("unrecognized format character '{}' in \"{}\"", v.verb, v.text));
  }
}

int ParseDigits(const std::string& f, size_t& pos) {
  int n = -1;
  while (pos < f.size() && std::isdigit(static_cast<unsigned char>(f[pos]))) {
    n = (n < 0 ? 0 : n * 10) + (f[pos++] - '0');
    if (n > 10000) Fail(0, "width or precision in format string is too large");
  }
  return n;
}

// Formats `args` (the arguments after the format string; errors point at args index + 1).
std::string FormatString(const std::string& f, const Args& args) {
  std::string out;
  size_t next_arg = 0;
  bool explicit_index = false;
  for (size_t pos = 0; pos < f.size();) {
    if (f[pos] != '%') {
      out += f[pos++];
      continue;
    }
    size_t start = pos++;
    if (pos < f.size() && f[pos] == '%') {
      out += '%';
      ++pos;
      continue;
    }
    FormatVerb v;
    for (; pos < f.size(); ++pos) {
      char c = f[pos];
      if (c == '-')
        v.minus = true;
      else if (c == '+')
        v.plus = true;
      else if (c == ' ')
        v.space = true;
      else if (c == '0')
        v.zero = true;
      else if (c == '#')
        v.sharp = true;
      else
        break;
    }
    if (pos < f.size() && f[pos] == '[') {
      size_t close = f.find(']', pos);
      int n = 0;
      auto [ptr, ec] = std::from_chars(
          f.data() + pos + 1, f.data() + (close == std::string::npos ? pos + 1 : close), n);
      if (close == std::string::npos || ec != std::errc() || ptr != f.data() + close || n < 1) {
        Fail(0, fmt::format("invalid argument index in format string at offset {}", start));
      }
      next_arg = n - 1;
      explicit_index = true;
      pos = close + 1;
    }
    v.width = ParseDigits(f, pos);
    if (pos < f.size() && f[pos] == '.') {
      ++pos;
      v.precision = std::max(0, ParseDigits(f, pos));
    }
    if (pos >= f.size())
      Fail(0, fmt::format("format string ends with an incomplete verb at offset {}", start));
    v.verb = f[pos++];
    v.text = f.substr(start, pos - start);
    if (std::string("vtdboxXeEfgGsq").find(v.verb) == std::string::npos) {
      Fail(0, fmt::format("unrecognized format character '{}' at offset {}", v.verb, pos - 1));
    }
    if (next_arg >= args.size()) {
      Fail(0, fmt::format("not enough arguments for \"{}\" at offset {}: need argument {}, have {}",
                          v.text, start, next_arg + 1, args.size()));
    }
    out += FormatOne(v, args[next_arg], static_cast<int>(next_arg) + 1);
    ++next_arg;
  }
  if (!explicit_index && next_arg < args.size()) {
    Fail(static_cast<int>(next_arg) + 1,
         fmt::format("too many arguments; only {} used by format string", next_arg));
  }
  return out;
}

Value Format(const Args& args, const FunctionContext&) {
  return Value::String(
      FormatString(functions::StringArg(args, 0), Args(args.begin() + 1, args.end())));
}

Value FormatList(const Args& args, const FunctionContext&) {
  std::string f = functions::StringArg(args, 0);
  int list_arg = -1;
  size_t count = 1;
  for (size_t i = 1; i < args.size(); ++i) {
    if (!args[i].IsSequence()) continue;
    size_t n = args[i].AsList().size();
    if (list_arg >= 0 && n != count) {
      Fail(static_cast<int>(i),
           fmt::format("argument {} has length {}, which is inconsistent with argument {} "
                       "of length {}",
                       i, n, list_arg, count));
    }
    list_arg = static_cast<int>(i);
    count = n;
  }
  std::vector<std::string> out;
  for (size_t row = 0; row < count; ++row) {
    Args row_args;
    for (size_t i = 1; i < args.size(); ++i) {
      row_args.push_back(args[i].IsSequence() ? args[i].AsList()[row] : args[i]);
    }
    out.push_back(FormatString(f, row_args));
  }
  return functions::StringList(out);
}

// ---- join, split, case --------------------------------------------------------------------

Value Join(const Args& args, const FunctionContext&) {
  std::string sep = functions::StringArg(args, 0);
  std::string out;
  bool first = true;
  for (size_t i = 1; i < args.size(); ++i) {
    const ValueList& items = functions::SequenceArg(args, static_cast<int>(i));
    for (size_t j = 0; j < items.size(); ++j) {
      if (items[j].IsNull()) {
        Fail(static_cast<int>(i),
             fmt::format("element {} is null; cannot concatenate null values", j));
      }
      out += (first ? "" : sep) + functions::ToStringElement(items[j], static_cast<int>(i),
                                                             fmt::format("element {}", j));
      first = false;
    }
  }
  return Value::String(out);
}

Value Split(const Args& args, const FunctionContext&) {
  std::string sep = functions::StringArg(args, 0);
  std::string s = functions::StringArg(args, 1);
  std::vector<std::string> parts;
  if (sep.empty()) {
    for (char32_t cp : functions::DecodeUtf8(s))
      parts.push_back(functions::EncodeUtf8(std::u32string(1, cp)));
    return functions::StringList(parts);
  }
  size_t start = 0;
  for (size_t pos = s.find(sep); pos != std::string::npos; pos = s.find(sep, start)) {
    parts.push_back(s.substr(start, pos - start));
    start = pos + sep.size();
  }
  parts.push_back(s.substr(start));
  return functions::StringList(parts);
}

// Simple case mapping for ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic.
char32_t MapCase(char32_t c, bool upper) {
  auto shift = [&](char32_t lo_begin, char32_t lo_end, char32_t delta) -> char32_t {
    if (upper && c >= lo_begin && c <= lo_end) return c - delta;
    if (!upper && c >= lo_begin - delta && c <= lo_end - delta) return c + delta;
    return 0;
  };
  if (char32_t r = shift(U'a', U'z', 0x20)) return r;
  if (c == 0xFF || c == 0x178) return upper ? 0x178 : 0xFF;
  if (c == 0x3C2) return upper ? 0x3A3 : c;  // final sigma
  if (c != 0xF7 && c != 0xD7) {
    if (char32_t r = shift(0xE0, 0xFE, 0x20)) return r;
  }
  if (c >= 0x100 && c <= 0x17F && c != 0x130 && c != 0x131 && c != 0x138 && c != 0x149 &&
      c != 0x17F) {
    bool pairs_even = (c >= 0x100 && c <= 0x137) || (c >= 0x14A && c <= 0x177);
    bool is_upper = pairs_even ? c % 2 == 0 : c % 2 == 1;
    if (upper && !is_upper) return c - 1;
    if (!upper && is_upper) return c + 1;
    return c;
  }
  if (c != 0x3A2) {
    if (char32_t r = shift(0x3B1, 0x3C9, 0x20)) return r;
  }
  if (char32_t r = shift(0x430, 0x44F, 0x20)) return r;
  if (char32_t r = shift(0x450, 0x45F, 0x50)) return r;
  return c;
}

std::string MapCaseString(const std::string& s, bool upper) {
  auto cps = functions::DecodeUtf8(s);
  for (auto& c : cps) c = MapCase(c, upper);
  return functions::EncodeUtf8(cps);
}

// Go's unicode.IsSpace.
bool IsSpace(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}

// Go's strings.Title: upper-cases the first letter of each word, where words are separated by
// spaces and by ASCII characters other than letters, digits and underscore.
std::string Title(const std::string& s) {
  auto cps = functions::DecodeUtf8(s);
  bool at_word_start = true;
  for (auto& c : cps) {
    if (at_word_start) c = MapCase(c, true);
    bool separator = c < 0x80 ? !(std::isalnum(static_cast<int>(c)) || c == '_') : IsSpace(c);
    at_word_start = separator;
  }
  return functions::EncodeUtf8(cps);
}

// ---- regular expressions ------------------------------------------------------------------

Value Replace(const Args& args, const FunctionContext&) {
  std::string s = functions::StringArg(args, 0);
  std::string search = functions::StringArg(args, 1);
  std::string replacement = functions::StringArg(args, 2);
  if (search.size() >= 2 && search.front() == '/' && search.back() == '/') {
    return Value::String(functions::RegexPattern(search.substr(1, search.size() - 2), 1).ReplaceAll(s, replacement));
  }
  if (search.empty()) {
    // Like Go: the replacement goes before every character and at the end.
    std::string out = replacement;
    for (char32_t cp : functions::DecodeUtf8(s))
      out += functions::EncodeUtf8(std::u32string(1, cp)) + replacement;
    return Value::String(out);
  }
  std::string out;
  size_t start = 0;
  for (size_t pos = s.find(search); pos != std::string::npos; pos = s.find(search, start)) {
    out += s.substr(start, pos - start) + replacement;
    start = pos + search.size();
  }
  return Value::String(out + s.substr(start));
}

// One match as regex() returns it: the whole match, a list of groups, or an object of groups.
Value MatchValue(const functions::RegexMatch& m, const functions::RegexPattern& re) {
  const std::vector<std::string>& names = re.group_names();
  if (names.empty()) return Value::String(std::string(m[0]));
  auto group = [&](size_t i) { return m[i].data() ? Value::String(std::string(m[i])) : Value::Null(); };
  if (re.has_named_groups()) {
    ValueMap out;
    for (size_t i = 0; i < names.size(); ++i) out[names[i]] = group(i + 1);
    return Value::Object(std::move(out));
  }
  ValueList out;
  for (size_t i = 0; i < names.size(); ++i) out.push_back(group(i + 1));
  return Value::List(std::move(out));
}

functions::RegexPattern CapturingPattern(const Args& args) {
  functions::RegexPattern re(functions::StringArg(args, 0), 0);
  if (re.has_named_groups() && re.has_unnamed_groups()) {
    Fail(0,
         "invalid regular expression: named and unnamed capture groups cannot be mixed in the "
         "same pattern");
  }
  return re;
}

Value Regex(const Args& args, const FunctionContext&) {
  functions::RegexPattern re = CapturingPattern(args);
  std::string s = functions::StringArg(args, 1);
  functions::RegexMatch m;
  if (!re.FirstMatch(s, m)) Fail(-1, "pattern did not match any part of the given string");
  return MatchValue(m, re);
}

Value RegexAll(const Args& args, const FunctionContext&) {
  functions::RegexPattern re = CapturingPattern(args);
  std::string s = functions::StringArg(args, 1);
  ValueList out;
  re.ForEachMatch(s, [&](const functions::RegexMatch& m) { out.push_back(MatchValue(m, re)); });
  return Value::List(std::move(out));
}

// ---- trimming and slicing -----------------------------------------------------------------

template <typename Pred>
std::string TrimCodePoints(const std::string& s, Pred drop) {
  auto cps = functions::DecodeUtf8(s);
  size_t begin = 0, end = cps.size();
  while (begin < end && drop(cps[begin])) ++begin;
  while (end > begin && drop(cps[end - 1])) --end;
  return functions::EncodeUtf8(std::vector<char32_t>(cps.begin() + begin, cps.begin() + end));
}

Value Trim(const Args& args, const FunctionContext&) {
  auto cutset = functions::DecodeUtf8(functions::StringArg(args, 1));
  return Value::String(TrimCodePoints(functions::StringArg(args, 0), [&](char32_t c) {
    return std::find(cutset.begin(), cutset.end(), c) != cutset.end();
  }));
}

Value TrimPrefix(const Args& args, const FunctionContext&) {
  std::string s = functions::StringArg(args, 0);
  std::string prefix = functions::StringArg(args, 1);
  return Value::String(s.starts_with(prefix) ? s.substr(prefix.size()) : s);
}

Value TrimSuffix(const Args& args, const FunctionContext&) {
  std::string s = functions::StringArg(args, 0);
  std::string suffix = functions::StringArg(args, 1);
  return Value::String(s.ends_with(suffix) ? s.substr(0, s.size() - suffix.size()) : s);
}

std::string Chomp(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

// Offsets and lengths count characters (grapheme clusters), as Terraform's do.
Value Substr(const Args& args, const FunctionContext&) {
  std::string s = functions::StringArg(args, 0);
  auto characters = functions::Graphemes(s);
  int64_t offset = functions::IntegerArg(args, 1);
  int64_t length = functions::IntegerArg(args, 2);
  int64_t total = static_cast<int64_t>(characters.size());
  if (offset < 0) offset = std::max<int64_t>(0, offset + total);
  if (offset >= total) return Value::String("");
  int64_t end = length < 0 ? total : std::min(total, offset + length);
  const char* begin = characters[offset].data();
  const char* stop = end == total ? s.data() + s.size() : characters[end].data();
  return Value::String(std::string(begin, stop));
}

// Reverses the characters (grapheme clusters), so accents and flags stay whole.
std::string ReverseString(const std::string& s) {
  auto characters = functions::Graphemes(s);
  std::string out;
  out.reserve(s.size());
  for (auto it = characters.rbegin(); it != characters.rend(); ++it) out.append(*it);
  return out;
}

// startswith, endswith, strcontains.
void DefineStringPredicate(FunctionTable& table, const std::string& name,
                           bool (*pred)(const std::string&, const std::string&)) {
  Define(table, name, 2, 2, [pred](const Args& args, const FunctionContext&) {
    return Value::Bool(pred(functions::StringArg(args, 0), functions::StringArg(args, 1)));
  });
}

Value Indent(const Args& args, const FunctionContext&) {
  int64_t spaces = functions::IntegerArg(args, 0);
  if (spaces < 0) Fail(0, "the number of spaces must not be negative");
  std::string s = functions::StringArg(args, 1);
  std::string pad(spaces, ' ');
  std::string out;
  for (char c : s) {
    out += c;
    if (c == '\n') out += pad;
  }
  return Value::String(out);
}

}  // namespace

void RegisterStringFunctions(FunctionTable& table) {
  Define(table, "format", 1, -1, Format);
  Define(table, "formatlist", 1, -1, FormatList);
  Define(table, "join", 2, -1, Join);
  Define(table, "split", 2, 2, Split);
  DefineStringFunction(table, "lower",
                       [](const std::string& s) { return MapCaseString(s, false); });
  DefineStringFunction(table, "upper", [](const std::string& s) { return MapCaseString(s, true); });
  DefineStringFunction(table, "title", Title);
  Define(table, "replace", 3, 3, Replace);
  Define(table, "regex", 2, 2, Regex);
  Define(table, "regexall", 2, 2, RegexAll);
  Define(table, "trim", 2, 2, Trim);
  DefineStringFunction(table, "trimspace",
                       [](const std::string& s) { return TrimCodePoints(s, IsSpace); });
  Define(table, "trimprefix", 2, 2, TrimPrefix);
  Define(table, "trimsuffix", 2, 2, TrimSuffix);
  DefineStringFunction(table, "chomp", Chomp);
  Define(table, "substr", 3, 3, Substr);
  DefineStringPredicate(table, "startswith", [](const std::string& s, const std::string& p) {
    return s.starts_with(p);
  });
  DefineStringPredicate(table, "endswith",
                        [](const std::string& s, const std::string& p) { return s.ends_with(p); });
  DefineStringPredicate(table, "strcontains", [](const std::string& s, const std::string& p) {
    return s.find(p) != std::string::npos;
  });
  DefineStringFunction(table, "strrev", ReverseString);
  Define(table, "indent", 2, 2, Indent);
}

}  // namespace strata
