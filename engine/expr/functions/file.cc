// Filesystem functions: file, fileexists, filebase64, templatefile (and templatestring, its
// twin for a template held in a string), fileset and the path
// functions (dirname, basename, abspath, pathexpand). Relative paths resolve against
// ctx.base_dir, the module's directory.
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>

#include "engine/base/base64.h"
#include "engine/expr/function.h"
#include "engine/expr/functions/util.h"

namespace strata {
namespace {

using functions::Args;
using functions::Define;
using functions::DefineStringFunction;
using functions::Fail;
namespace fs = std::filesystem;

// Reads the file named by argument `index`; it must hold UTF-8 text.
std::string ReadTextFile(const Args& args, int index, const FunctionContext& ctx) {
  std::string content = functions::ReadFileArg(args, index, ctx);
  if (!functions::IsValidUtf8(content)) {
    Fail(index,
         fmt::format("contents of \"{}\" are not valid UTF-8; use the filebase64 function to "
                     "obtain the Base64 encoded contents or the other file functions (e.g. "
                     "filemd5, filesha256) to obtain file hashing results instead",
                     functions::ResolvePath(ctx, functions::StringArg(args, index))));
  }
  return content;
}

Value File(const Args& args, const FunctionContext& ctx) {
  return Value::String(ReadTextFile(args, 0, ctx));
}

Value FileExists(const Args& args, const FunctionContext& ctx) {
  std::string path = functions::ResolvePath(ctx, functions::StringArg(args, 0));
  std::error_code ec;
  auto status = fs::status(path, ec);
  if (!fs::exists(status)) return Value::Bool(false);
  if (!fs::is_regular_file(status)) Fail(0, fmt::format("\"{}\" is not a regular file", path));
  return Value::Bool(true);
}

Value FileBase64(const Args& args, const FunctionContext& ctx) {
  return Value::String(base::Base64Encode(functions::ReadFileArg(args, 0, ctx)));
}

Value TemplateFile(const Args& args, const FunctionContext& ctx) {
  Value vars = functions::TemplateVarsArg(args, 1);
  functions::RequireTemplateRenderer(ctx, "templatefile");
  std::string text = ReadTextFile(args, 0, ctx);
  return ctx.render_template(text, functions::ResolvePath(ctx, functions::StringArg(args, 0)),
                             vars);
}

// templatestring: a template held in a string (fetched from elsewhere: the evaluator refuses
// a literal template as the argument, FunctionCallExpr). Unlike templatefile's, the vars
// must not be null.
Value TemplateString(const Args& args, const FunctionContext& ctx) {
  functions::NotNull(args, 1);
  Value vars = functions::TemplateVarsArg(args, 1);
  functions::RequireTemplateRenderer(ctx, "templatestring");
  return ctx.render_template(functions::StringArg(args, 0), "<templatestring argument>", vars);
}

// Go's path.Clean: one slash between elements, no "." elements, ".." resolved lexically.
std::string CleanPath(const std::string& path) {
  if (path.empty()) return ".";
  bool rooted = path[0] == '/';
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    std::string part =
        path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part == "..") {
      if (!parts.empty() && parts.back() != "..") {
        parts.pop_back();
      } else if (!rooted) {
        parts.push_back(part);
      }
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  std::string out = rooted ? "/" : "";
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? "/" : "") + parts[i];
  return out.empty() ? "." : out;
}

std::string DirName(const std::string& path) {
  size_t slash = path.rfind('/');
  return CleanPath(slash == std::string::npos ? "" : path.substr(0, slash + 1));
}

std::string BaseName(const std::string& path) {
  if (path.empty()) return ".";
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  if (p == "/") return "/";
  size_t slash = p.rfind('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

Value AbsPath(const Args& args, const FunctionContext& ctx) {
  std::string path = functions::StringArg(args, 0);
  fs::path p(path);
  if (p.is_relative())
    p = (ctx.base_dir.empty() ? fs::current_path() : fs::absolute(ctx.base_dir)) / p;
  return Value::String(CleanPath(p.generic_string()));
}

Value PathExpand(const Args& args, const FunctionContext&) {
  std::string path = functions::StringArg(args, 0);
  if (path.empty() || path[0] != '~') return Value::String(path);
  if (path.size() > 1 && path[1] != '/') Fail(0, "cannot expand user-specific home dir");
  const char* home = std::getenv("HOME");
  if (!home || !*home) Fail(0, "cannot expand \"~\": the HOME environment variable is not set");
  return Value::String(std::string(home) + path.substr(1));
}

// ---- fileset ------------------------------------------------------------------------------

// Expands the first {a,b} group (recursively) into separate patterns.
std::vector<std::string> ExpandBraces(const std::string& pattern) {
  size_t open = std::string::npos;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\') {
      ++i;
    } else if (pattern[i] == '{') {
      open = i;
      break;
    }
  }
  if (open == std::string::npos) return {pattern};
  int depth = 0;
  std::vector<std::string> options;
  size_t option_start = open + 1;
  for (size_t i = open; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '\\') {
      ++i;
    } else if (c == '{') {
      ++depth;
    } else if (c == ',' && depth == 1) {
      options.push_back(pattern.substr(option_start, i - option_start));
      option_start = i + 1;
    } else if (c == '}' && --depth == 0) {
      options.push_back(pattern.substr(option_start, i - option_start));
      std::vector<std::string> out;
      for (const auto& option : options) {
        for (auto& expanded :
             ExpandBraces(pattern.substr(0, open) + option + pattern.substr(i + 1))) {
          out.push_back(std::move(expanded));
        }
      }
      return out;
    }
  }
  Fail(1, fmt::format("invalid glob pattern \"{}\": unterminated '{{'", pattern));
}

// Matches a [...] class at pattern[p] against c; advances p past the class.
bool MatchClass(const std::string& pattern, size_t& p, char c) {
  size_t i = p + 1;
  bool negate = i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^');
  if (negate) ++i;
  bool matched = false;
  bool first = true;
  for (; i < pattern.size() && (first || pattern[i] != ']'); ++i, first = false) {
    char lo = pattern[i] == '\\' && i + 1 < pattern.size() ? pattern[++i] : pattern[i];
    char hi = lo;
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      i += 2;
      hi = pattern[i] == '\\' && i + 1 < pattern.size() ? pattern[++i] : pattern[i];
    }
    matched = matched || (c >= lo && c <= hi);
  }
  if (i >= pattern.size())
    Fail(1, fmt::format("invalid glob pattern \"{}\": unterminated '['", pattern));
  p = i + 1;
  return matched != negate;
}

// Matches one path segment against one pattern segment (*, ?, [...], \x).
bool MatchSegment(const std::string& pattern, size_t p, const std::string& name, size_t n) {
  while (p < pattern.size()) {
    char c = pattern[p];
    if (c == '*') {
      for (size_t k = n; k <= name.size(); ++k) {
        if (MatchSegment(pattern, p + 1, name, k)) return true;
      }
      return false;
    }
    if (n >= name.size()) return false;
    if (c == '?') {
      ++p;
    } else if (c == '[') {
      if (!MatchClass(pattern, p, name[n])) return false;
    } else {
      if (c == '\\' && p + 1 < pattern.size()) c = pattern[++p];
      if (c != name[n]) return false;
      ++p;
    }
    ++n;
  }
  return n == name.size();
}

std::vector<std::string> SplitSlash(const std::string& s) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t slash = s.find('/'); slash != std::string::npos; slash = s.find('/', start)) {
    parts.push_back(s.substr(start, slash - start));
    start = slash + 1;
  }
  parts.push_back(s.substr(start));
  return parts;
}

// Matches path segments against pattern segments; "**" spans zero or more segments.
bool MatchSegments(const std::vector<std::string>& pattern, size_t p,
                   const std::vector<std::string>& path, size_t n) {
  if (p == pattern.size()) return n == path.size();
  if (pattern[p] == "**") {
    for (size_t k = n; k <= path.size(); ++k) {
      if (MatchSegments(pattern, p + 1, path, k)) return true;
    }
    return false;
  }
  return n < path.size() && MatchSegment(pattern[p], 0, path[n], 0) &&
         MatchSegments(pattern, p + 1, path, n + 1);
}

Value FileSet(const Args& args, const FunctionContext& ctx) {
  fs::path root = functions::ResolvePath(ctx, functions::StringArg(args, 0));
  std::string pattern = CleanPath(functions::StringArg(args, 1));
  std::vector<std::vector<std::string>> patterns;
  for (const auto& p : ExpandBraces(pattern)) patterns.push_back(SplitSlash(p));
  ValueList matches;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return Value::Set({});
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    std::string relative = it->path().lexically_relative(root).generic_string();
    auto segments = SplitSlash(relative);
    for (const auto& p : patterns) {
      if (MatchSegments(p, 0, segments, 0)) {
        matches.push_back(Value::String(relative));
        break;
      }
    }
  }
  if (ec) Fail(0, fmt::format("failed to list \"{}\": {}", root.string(), ec.message()));
  return Value::Set(std::move(matches));
}

}  // namespace

void RegisterFileFunctions(FunctionTable& table) {
  Define(table, "file", 1, 1, File);
  Define(table, "fileexists", 1, 1, FileExists);
  Define(table, "filebase64", 1, 1, FileBase64);
  Define(table, "templatefile", 2, 2, TemplateFile);
  Define(table, "templatestring", 2, 2, TemplateString);
  Define(table, "fileset", 2, 2, FileSet);
  DefineStringFunction(table, "dirname", DirName);
  DefineStringFunction(table, "basename", BaseName);
  Define(table, "abspath", 1, 1, AbsPath);
  Define(table, "pathexpand", 1, 1, PathExpand);
}

}  // namespace strata
