// Reading launch words. Integers go through std::from_chars (no locale, no silent overflow).
#include "triton/launch.hpp"

#include <charconv>
#include <cstdlib>

#include "sim/base/limits.hpp"

namespace tilesim::triton {
namespace {

constexpr std::int64_t kMaxGridAxis = std::int64_t{1} << 31;
constexpr std::int64_t kMaxPrograms = std::int64_t{1} << 24;
constexpr std::int64_t kMaxTensorElements = std::int64_t{1} << 40;

[[noreturn]] void bad(const std::string& file, SourcePos pos, std::string_view word,
                      const std::string& why) {
  throw SourceError(file, pos, "launch word \"" + std::string(word) + "\": " + why);
}

bool parse_int(std::string_view s, std::int64_t* v) {
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t b = 0;
  while (true) {
    const std::size_t e = s.find(sep, b);
    out.push_back(s.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
    if (e == std::string_view::npos) return out;
    b = e + 1;
  }
}

std::string_view trim(std::string_view s, std::string_view chars = " ()[]") {
  while (!s.empty() && chars.find(s.front()) != std::string_view::npos) s.remove_prefix(1);
  while (!s.empty() && chars.find(s.back()) != std::string_view::npos) s.remove_suffix(1);
  return s;
}

// fp16 | bf16 | fp32 (sim's names, spelled here because the front end sits below sim/program)
// or Triton's float16 | bfloat16 | float32 | int32 ...
std::optional<Elem> parse_elem(std::string_view s) {
  if (s == "fp16") return Elem::f16;
  if (s == "bf16") return Elem::bf16;
  if (s == "fp32") return Elem::f32;
  for (Elem e : {Elem::i1, Elem::i8, Elem::i16, Elem::i32, Elem::i64, Elem::f16, Elem::bf16,
                 Elem::f32, Elem::f64})
    if (to_string(e) == s) return e;
  return std::nullopt;
}

TensorDesc parse_tensor(std::string_view v, const std::string& file, SourcePos pos,
                        std::string_view word) {
  const auto parts = split(v, ':');
  if (parts.size() < 2 || parts.size() > 3)
    bad(file, pos, word, "a tensor is ROWSxCOLS:DTYPE[:strides=S0,S1]");
  const auto dims = split(parts[0], 'x');
  TensorDesc t;
  if (dims.size() > 2 || !parse_int(dims[0], &t.rows) ||
      (dims.size() == 2 && !parse_int(dims[1], &t.cols)))
    bad(file, pos, word, "the shape is ROWSxCOLS or LENGTH");
  if (t.rows < 1 || t.cols < 1 || t.rows > sim::kMaxDim * sim::kMaxDim ||
      t.cols > sim::kMaxDim * sim::kMaxDim ||
      static_cast<__int128>(t.rows) * t.cols > kMaxTensorElements)
    bad(file, pos, word, "each size is 1.." + std::to_string(sim::kMaxDim * sim::kMaxDim));
  const auto e = parse_elem(parts[1]);
  if (!e) bad(file, pos, word, "unknown dtype: allowed fp16 | bf16 | fp32 | int32 | ...");
  t.elem = *e;
  t.stride_row = t.cols;
  t.stride_col = 1;
  if (parts.size() == 3) {
    const std::string_view s = parts[2];
    const auto st =
        s.substr(0, 8) == "strides=" ? split(s.substr(8), ',') : std::vector<std::string_view>{};
    if (st.size() != 2 || !parse_int(st[0], &t.stride_row) || !parse_int(st[1], &t.stride_col) ||
        t.stride_row < 0 || t.stride_col < 0 || t.stride_row > kMaxTensorElements ||
        t.stride_col > kMaxTensorElements)
      bad(file, pos, word,
          "strides are strides=S0,S1 (elements, 0.." + std::to_string(kMaxTensorElements) + ")");
    if (t.end() > kMaxTensorElements) bad(file, pos, word, "the tensor spans too much memory");
  }
  return t;
}

}  // namespace

const ArgValue* Launch::find(std::string_view name) const {
  for (const auto& a : args)
    if (a.name == name) return &a;
  return nullptr;
}

void apply_launch_word(std::string_view word, Launch* launch, const std::string& file,
                       SourcePos pos) {
  const std::size_t eq = word.find('=');
  if (eq == std::string_view::npos || eq == 0) bad(file, pos, word, "expected NAME=VALUE");
  const std::string name(trim(word.substr(0, eq), " "));
  const std::string_view v = trim(word.substr(eq + 1), " ");
  if (name == "grid") {
    std::array<std::int64_t, 3> g{1, 1, 1};
    std::size_t n = 0;
    for (auto part : split(trim(v), ',')) {
      part = trim(part);
      if (part.empty() && n > 0) continue;  // "(81,)"
      if (n == 3 || !parse_int(part, &g[n]) || g[n] < 1 || g[n] > kMaxGridAxis)
        bad(file, pos, word, "the grid is 1 to 3 integers in 1..2^31, e.g. grid=9,9");
      ++n;
    }
    if (g[0] * g[1] > kMaxPrograms || g[0] * g[1] * g[2] > kMaxPrograms)
      bad(file, pos, word, "at most " + std::to_string(kMaxPrograms) + " programs");
    launch->grid = g;
    return;
  }
  if (name == "num_warps" || name == "num_stages") {
    std::int64_t x = 0;
    if (!parse_int(v, &x) || x < 1 || x > 64) bad(file, pos, word, "an integer in 1..64");
    (name == "num_warps" ? launch->num_warps : launch->num_stages) = static_cast<int>(x);
    return;
  }
  ArgValue a;
  a.name = name;
  std::int64_t i = 0;
  if (parse_int(v, &i)) {
    a.value = i;
  } else if (v == "True" || v == "False") {
    a.value = v == "True";
  } else if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) {
    a.value = std::string(v.substr(1, v.size() - 2));
  } else if (v.find(':') != std::string_view::npos) {
    a.value = parse_tensor(v, file, pos, word);
  } else {
    char* end = nullptr;
    const std::string s(v);
    const double d = std::strtod(s.c_str(), &end);
    if (s.empty() || *end)
      bad(file, pos, word,
          "the value is an integer, a number, True/False, "
          "a quoted string or a tensor ROWSxCOLS:DTYPE");
    a.value = d;
  }
  for (auto& old : launch->args)
    if (old.name == name) {
      old = std::move(a);
      return;
    }
  launch->args.push_back(std::move(a));
}

Launch launch_from_comments(const KernelSource& k) {
  Launch l;
  for (std::size_t n = 0; n < k.lines.size(); ++n) {
    std::string_view line = k.lines[n];
    const std::size_t hash = line.find('#');
    if (hash == std::string_view::npos) continue;
    std::string_view rest = trim(line.substr(hash + 1), " ");
    if (rest.substr(0, 7) != "launch:") continue;
    const int col0 = static_cast<int>(line.size() - rest.size()) + 8;
    rest.remove_prefix(7);
    std::size_t b = 0;
    while (b < rest.size()) {
      while (b < rest.size() && rest[b] == ' ') ++b;
      std::size_t e = b;
      while (e < rest.size() && rest[e] != ' ') ++e;
      if (e > b)
        apply_launch_word(rest.substr(b, e - b), &l, k.file,
                          {static_cast<int>(n + 1), col0 + static_cast<int>(b)});
      b = e;
    }
  }
  return l;
}

void check_launch(const KernelSource& k, const Launch& launch) {
  for (const auto& p : k.fn.params)
    if (!p.default_value && !launch.find(p.name))
      throw SourceError(k.file, p.pos,
                        "argument " + p.name + " has no value: give --arg " + p.name + "=...");
  for (const auto& a : launch.args) {
    bool known = false;
    for (const auto& p : k.fn.params) known = known || p.name == a.name;
    if (!known)
      throw SourceError(k.file, k.fn.pos, k.fn.name + " has no parameter named " + a.name);
  }
}

std::string describe(const Launch& launch) {
  std::string out;
  for (const auto& a : launch.args) {
    out += a.name + "=";
    if (const auto* t = std::get_if<TensorDesc>(&a.value))
      out += std::to_string(t->rows) + "x" + std::to_string(t->cols) + ":" +
             std::string(to_string(t->elem)) + ":strides=" + std::to_string(t->stride_row) + "," +
             std::to_string(t->stride_col);
    else if (const auto* i = std::get_if<std::int64_t>(&a.value))
      out += std::to_string(*i);
    else if (const auto* d = std::get_if<double>(&a.value))
      out += std::to_string(*d);
    else if (const auto* b = std::get_if<bool>(&a.value))
      out += *b ? "True" : "False";
    else
      out += "\"" + std::get<std::string>(a.value) + "\"";
    out += " ";
  }
  return out + "grid=" + std::to_string(launch.grid[0]) + "," + std::to_string(launch.grid[1]) +
         "," + std::to_string(launch.grid[2]) + " num_warps=" + std::to_string(launch.num_warps) +
         " num_stages=" + std::to_string(launch.num_stages);
}

}  // namespace tilesim::triton
