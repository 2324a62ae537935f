// Encoding functions: JSON, YAML, base64 (plain, gzipped, and of text in other character
// encodings), URL query escaping and CSV. gzip is zlib's; the character encodings are ICU's
// converters, which know the IANA names and aliases Terraform's textencodebase64 accepts.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <nlohmann/json.hpp>
#include <memory>

#include <unicode/ucnv.h>
#include <unicode/unistr.h>
#include <zlib.h>

#include "engine/base/base64.h"
#include "engine/base/query_unescape.h"
#include "engine/expr/function.h"
#include "engine/expr/functions/util.h"
#include "engine/expr/functions/yaml_value.h"
#include "engine/value/json.h"
#include "engine/value/limits.h"
#include "engine/value/yaml_bounds.h"

namespace strata {
namespace {

using functions::Args;
using functions::Define;
using functions::DefineStringFunction;
using functions::Fail;

// Whether `text` has a run of more than 17 characters that could be a number's.
bool MayHoldLongNumber(const std::string& text) {
  size_t run = 0;
  for (char c : text) {
    bool numeric = std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+';
    run = numeric ? run + 1 : 0;
    if (run > 17) return true;
  }
  return false;
}

Value JsonDecode(const Args& args, const FunctionContext&) {
  std::string text = functions::StringArg(args, 0);
  // nlohmann's parser does not recurse, but JsonToValue does: deep documents are refused
  // while parsing, before they are built. `depth` counts the enclosing objects and arrays.
  auto bounded = [](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
    bool opens = event == nlohmann::json::parse_event_t::object_start || event == nlohmann::json::parse_event_t::array_start;
    if (opens && depth >= kMaxNestingDepth) {
      Fail(0, fmt::format("invalid JSON: objects and arrays nest more than {} levels deep", kMaxNestingDepth));
    }
    return true;
  };
  try {
    nlohmann::json doc = nlohmann::json::parse(text, bounded);
    // Numbers of more digits than a double holds are read again from their text, at
    // Terraform's precision (the document is valid and within the depth bound by now).
    if (MayHoldLongNumber(text)) doc = ParseExactJson(text);
    return JsonToValue(doc);
  } catch (const nlohmann::json::exception& e) {
    // A syntax error, or a number beyond double's range ("1e400": out_of_range.406).
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 2: ..." -> after the tag.
    size_t tag_end = what.find("] ");
    Fail(0, "invalid JSON: " + (tag_end == std::string::npos ? what : what.substr(tag_end + 2)));
  }
}

// ---- YAML ---------------------------------------------------------------------------------

std::string YamlQuote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\n':
        out += "\\n";
        break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += fmt::format("\\x{:02X}", c);
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// A string with line breaks as a literal block scalar, like go-yaml.
std::string YamlLiteral(const std::string& s, int indent) {
  size_t trailing = 0;
  while (trailing < s.size() && s[s.size() - 1 - trailing] == '\n') ++trailing;
  std::string out = trailing == 0 ? "|-" : trailing == 1 ? "|" : "|+";
  if (!s.empty() && s[0] == ' ') out += "2";
  std::string pad(indent, ' ');
  std::string body = s.substr(0, s.size() - trailing);
  size_t start = 0;
  while (true) {
    size_t nl = body.find('\n', start);
    std::string line = body.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    out += '\n';
    if (!line.empty()) out.append(pad).append(line);
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  for (size_t i = 1; i < trailing; ++i) out += "\n";
  return out;
}

bool IsBlock(const Value& v) { return v.IsCollection() && v.Length() > 0; }

// Appends `v` as a YAML node at `indent`; `out` already holds the key or "- " before it.
void EmitYaml(const Value& v, int indent, std::string& out) {
  switch (v.kind()) {
    case ValueKind::Null:
    case ValueKind::Unknown:
      out += "null";
      return;
    case ValueKind::Bool:
      out += v.AsBool() ? "true" : "false";
      return;
    case ValueKind::Number:
      out += FormatNumber(v.AsExactNumber());
      return;
    case ValueKind::String:
      out += v.AsString().find('\n') != std::string::npos
                 ? YamlLiteral(v.AsString(), std::max(indent, 2))
                 : YamlQuote(v.AsString());
      return;
    case ValueKind::List:
    case ValueKind::Tuple:
    case ValueKind::Set: {
      if (v.AsList().empty()) {
        out += "[]";
        return;
      }
      bool first = true;
      for (const auto& e : v.AsList()) {
        if (!first) out += "\n" + std::string(indent, ' ');
        first = false;
        out += "- ";
        EmitYaml(e, indent + 2, out);
      }
      return;
    }
    case ValueKind::Map:
    case ValueKind::Object: {
      if (v.AsMap().empty()) {
        out += "{}";
        return;
      }
      bool first = true;
      for (const auto& [k, e] : v.AsMap()) {
        if (!first) out += "\n" + std::string(indent, ' ');
        first = false;
        out += YamlQuote(k) + ":";
        if (IsBlock(e) && e.IsMapping()) {
          out += "\n" + std::string(indent + 2, ' ');
          EmitYaml(e, indent + 2, out);
        } else if (IsBlock(e)) {
          out += "\n" + std::string(indent, ' ');  // sequences in mappings are not indented
          EmitYaml(e, indent, out);
        } else {
          out += " ";
          EmitYaml(e, indent + 2, out);
        }
      }
      return;
    }
  }
}

Value YamlEncode(const Args& args, const FunctionContext&) {
  std::string out;
  EmitYaml(args[0], 0, out);
  // A document that is only a plain scalar (null, a bool, a number) is open-ended: go-yaml,
  // so Terraform, closes it with the document end marker.
  const Value& v = args[0];
  bool plain_scalar = v.IsNull() || v.kind() == ValueKind::Bool || v.kind() == ValueKind::Number;
  return Value::String(out + (plain_scalar ? "\n...\n" : "\n"));
}

Value YamlDecode(const Args& args, const FunctionContext&) {
  std::string text = functions::StringArg(args, 0);
  BoundedYaml parsed = ParseBoundedYaml(text);
  if (const auto& p = parsed.problem) {
    Fail(0, fmt::format("on line {}, column {}: {}", p->mark.line + 1, p->mark.column + 1, p->message));
  }
  const std::vector<YAML::Node>& docs = parsed.documents;
  if (docs.empty()) return Value::Null();
  if (docs.size() > 1) {
    Fail(
        0,
        "the YAML text contains more than one document; yamldecode accepts only a single document");
  }
  try {
    return functions::YamlNodeToValue(docs[0], functions::YamlScalarRules::Core12);
  } catch (const functions::YamlValueError& e) {
    Fail(0, e.message);
  }
}

// ---- base64, URL, CSV ---------------------------------------------------------------------

Value Base64DecodeFn(const Args& args, const FunctionContext&) {
  std::string text = functions::StringArg(args, 0);
  std::optional<std::string> bytes = base::Base64Decode(text);
  if (!bytes) Fail(0, fmt::format("failed to decode base64 data \"{}\"", text));
  if (!functions::IsValidUtf8(*bytes))
    Fail(0, "the result of decoding the provided string is not valid UTF-8");
  return Value::String(*bytes);
}

// ---- gzip ----------------------------------------------------------------------------------

// gzip as Go's compress/gzip writes it for Terraform's base64gzip (header without name or
// time, flushed, then closed with an empty final block), so short texts come out byte for
// byte as Terraform's. Longer ones are compressed by zlib rather than Go's deflate: they
// decompress to the same text, though the bytes may differ.
std::string Gzip(const std::string& data) {
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    Fail(-1, "failed to start gzip compression");
  std::string out("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 10);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  char buffer[16384];
  do {
    z.next_out = reinterpret_cast<Bytef*>(buffer);
    z.avail_out = sizeof buffer;
    deflate(&z, Z_SYNC_FLUSH);
    out.append(buffer, sizeof buffer - z.avail_out);
  } while (z.avail_out == 0);
  deflateEnd(&z);
  out.append("\x01\x00\x00\xff\xff", 5);  // the final, empty, stored block
  uLong crc = crc32(0, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size()));
  for (uint32_t word : {static_cast<uint32_t>(crc), static_cast<uint32_t>(data.size())}) {
    for (int i = 0; i < 4; ++i) out += static_cast<char>((word >> (8 * i)) & 0xFF);
  }
  return out;
}

std::string Gunzip(const std::string& data, int index) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) Fail(-1, "failed to start gzip decompression");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  std::string out;
  char buffer[16384];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buffer);
    z.avail_out = sizeof buffer;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buffer, sizeof buffer - z.avail_out);
    if (out.size() > kMaxDecompressedBytes) {
      inflateEnd(&z);
      Fail(index, fmt::format("the data decompresses to more than {} MiB", kMaxDecompressedBytes >> 20));
    }
    if (rc == Z_BUF_ERROR && z.avail_out != 0) break;  // the input ended before the stream did
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END) Fail(index, "failed to decompress the data: it is not complete, valid gzip");
  return out;
}

Value Base64Gzip(const Args& args, const FunctionContext&) {
  return Value::String(base::Base64Encode(Gzip(functions::StringArg(args, 0))));
}

Value Base64Gunzip(const Args& args, const FunctionContext&) {
  std::string text = functions::StringArg(args, 0);
  std::optional<std::string> bytes = base::Base64Decode(text);
  if (!bytes) Fail(0, fmt::format("failed to decode base64 data \"{}\"", text));
  std::string plain = Gunzip(*bytes, 0);
  if (!functions::IsValidUtf8(plain)) Fail(0, "the decompressed data is not valid UTF-8");
  return Value::String(plain);
}

// ---- text in other character encodings ---------------------------------------------------

struct ConverterCloser {
  void operator()(UConverter* c) const { ucnv_close(c); }
};
using Converter = std::unique_ptr<UConverter, ConverterCloser>;

//! The converter for an IANA encoding name or alias (argument `index`), set to fail on any
//! character it cannot convert rather than substitute one.
Converter OpenConverter(const Args& args, int index, std::string& iana_name) {
  std::string name = functions::StringArg(args, index);
  UErrorCode status = U_ZERO_ERROR;
  Converter converter(name.empty() ? nullptr : ucnv_open(name.c_str(), &status));
  if (!converter || U_FAILURE(status)) {
    Fail(index, fmt::format("\"{}\" is not a supported IANA encoding name or alias", name));
  }
  ucnv_setFromUCallBack(converter.get(), UCNV_FROM_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &status);
  ucnv_setToUCallBack(converter.get(), UCNV_TO_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &status);
  UErrorCode name_status = U_ZERO_ERROR;
  const char* standard = ucnv_getStandardName(ucnv_getName(converter.get(), &name_status), "IANA", &name_status);
  iana_name = standard && U_SUCCESS(name_status) ? standard : name;
  return converter;
}

Value TextEncodeBase64(const Args& args, const FunctionContext&) {
  std::string text = functions::StringArg(args, 0);
  std::string encoding;
  Converter converter = OpenConverter(args, 1, encoding);
  // ICU's "UTF-16" writes the machine's byte order; Go's (Terraform's) writes a big-endian
  // byte order mark and big-endian text.
  std::string out;
  UErrorCode name_status = U_ZERO_ERROR;
  if (std::string(ucnv_getName(converter.get(), &name_status)) == "UTF-16") {
    converter.reset(ucnv_open("UTF-16BE", &name_status));
    ucnv_setFromUCallBack(converter.get(), UCNV_FROM_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &name_status);
    out = "\xfe\xff";
  }
  icu::UnicodeString unicode = icu::UnicodeString::fromUTF8(text);
  UErrorCode status = U_ZERO_ERROR;
  int32_t size = ucnv_fromUChars(converter.get(), nullptr, 0, unicode.getBuffer(), unicode.length(), &status);
  if (status == U_BUFFER_OVERFLOW_ERROR || U_SUCCESS(status)) {
    status = U_ZERO_ERROR;
    size_t prefix = out.size();
    out.resize(prefix + static_cast<size_t>(size));
    ucnv_resetFromUnicode(converter.get());
    ucnv_fromUChars(converter.get(), out.data() + prefix, size, unicode.getBuffer(), unicode.length(), &status);
  }
  if (U_FAILURE(status)) {
    Fail(0, fmt::format("the given string contains characters that cannot be represented in {}", encoding));
  }
  return Value::String(base::Base64Encode(out));
}

Value TextDecodeBase64(const Args& args, const FunctionContext&) {
  std::string text = functions::StringArg(args, 0);
  std::string encoding;
  Converter converter = OpenConverter(args, 1, encoding);
  std::optional<std::string> bytes = base::Base64Decode(text);
  if (!bytes) Fail(0, fmt::format("failed to decode base64 data \"{}\"", text));
  UErrorCode status = U_ZERO_ERROR;
  int32_t size = ucnv_toUChars(converter.get(), nullptr, 0, bytes->data(), static_cast<int32_t>(bytes->size()), &status);
  icu::UnicodeString unicode;
  if (status == U_BUFFER_OVERFLOW_ERROR || U_SUCCESS(status)) {
    status = U_ZERO_ERROR;
    ucnv_resetToUnicode(converter.get());
    UChar* buffer = unicode.getBuffer(size + 1);
    int32_t written = ucnv_toUChars(converter.get(), buffer, size + 1, bytes->data(),
                                    static_cast<int32_t>(bytes->size()), &status);
    unicode.releaseBuffer(U_SUCCESS(status) ? written : 0);
  }
  if (U_FAILURE(status)) Fail(0, fmt::format("the given data contains symbols that are not defined for {}", encoding));
  std::string out;
  unicode.toUTF8String(out);
  return Value::String(out);
}

// Go's url.QueryUnescape: "+" is a space and %XX a byte; the bytes must make UTF-8 text.
std::string UrlDecode(const std::string& s) {
  size_t bad_at = 0;
  std::optional<std::string> out = base::QueryUnescape(s, &bad_at);
  if (!out) Fail(0, fmt::format("invalid URL escape \"{}\"", s.substr(bad_at, 3)));
  if (!functions::IsValidUtf8(*out)) Fail(0, "the decoded bytes are not valid UTF-8 text");
  return *out;
}

// Go's url.QueryEscape.
std::string UrlEncode(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else if (c == ' ') {
      out += '+';
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

// RFC 4180 records; `line` numbers start at 1. Blank lines are skipped, as Go's reader does.
std::vector<std::vector<std::string>> ParseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  size_t pos = 0;
  int line = 1;
  while (pos < text.size()) {
    if (text[pos] == '\n' || text.compare(pos, 2, "\r\n") == 0) {
      pos += text[pos] == '\n' ? 1 : 2;
      ++line;
      continue;
    }
    int record_line = line;
    std::vector<std::string> record;
    while (true) {
      std::string field;
      if (pos < text.size() && text[pos] == '"') {
        ++pos;
        while (true) {
          if (pos >= text.size())
            Fail(0, fmt::format("record on line {}: extraneous or missing \" in quoted-field",
                                record_line));
          if (text[pos] == '"') {
            if (pos + 1 < text.size() && text[pos + 1] == '"') {
              field += '"';
              pos += 2;
              continue;
            }
            ++pos;
            break;
          }
          if (text[pos] == '\n') ++line;
          field += text[pos++];
        }
        if (pos < text.size() && text[pos] != ',' && text[pos] != '\n' &&
            text.compare(pos, 2, "\r\n") != 0) {
          Fail(0, fmt::format("record on line {}: extraneous or missing \" in quoted-field",
                              record_line));
        }
      } else {
        while (pos < text.size() && text[pos] != ',' && text[pos] != '\n' &&
               text.compare(pos, 2, "\r\n") != 0) {
          if (text[pos] == '"')
            Fail(0, fmt::format("record on line {}: bare \" in non-quoted-field", record_line));
          field += text[pos++];
        }
      }
      record.push_back(std::move(field));
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      break;
    }
    records.push_back(std::move(record));
  }
  return records;
}

Value CsvDecode(const Args& args, const FunctionContext&) {
  auto records = ParseCsv(functions::StringArg(args, 0));
  if (records.empty()) Fail(0, "missing header line");
  const auto& header = records[0];
  ValueList rows;
  for (size_t r = 1; r < records.size(); ++r) {
    if (records[r].size() != header.size()) {
      Fail(0, fmt::format("record {}: wrong number of fields (expected {}, got {})", r,
                          header.size(), records[r].size()));
    }
    ValueMap row;
    for (size_t i = 0; i < header.size(); ++i) row[header[i]] = Value::String(records[r][i]);
    rows.push_back(Value::Object(std::move(row)));
  }
  return Value::List(std::move(rows));
}

}  // namespace

void RegisterEncodingFunctions(FunctionTable& table) {
  Define(table, "jsonencode", 1, 1, [](const Args& a, const FunctionContext&) {
    return Value::String(functions::JsonEncode(a[0]));
  });
  Define(table, "jsondecode", 1, 1, JsonDecode);
  Define(table, "yamlencode", 1, 1, YamlEncode);
  Define(table, "yamldecode", 1, 1, YamlDecode);
  DefineStringFunction(table, "base64encode", [](const std::string& s) { return base::Base64Encode(s); });
  Define(table, "base64decode", 1, 1, Base64DecodeFn);
  DefineStringFunction(table, "urlencode", UrlEncode);
  DefineStringFunction(table, "urldecode", UrlDecode);
  Define(table, "base64gzip", 1, 1, Base64Gzip);
  Define(table, "base64gunzip", 1, 1, Base64Gunzip);
  Define(table, "textencodebase64", 2, 2, TextEncodeBase64);
  Define(table, "textdecodebase64", 2, 2, TextDecodeBase64);
  Define(table, "csvdecode", 1, 1, CsvDecode);
}

}  // namespace strata
