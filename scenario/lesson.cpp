// Strict parsing of lesson files (see lesson.hpp). nlohmann::json keeps no source positions, so
// the text is parsed once with a callback that records the line of every key and array element
// (by JSON pointer); a refusal then names "line L: steps[2].highlight.tiles[0].row".
#include "scenario/lesson.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "scenario/lesson_text.hpp"

namespace tilesim::scenario {
namespace {

using nlohmann::json;

// A char iterator that tells how far the parser has read (nlohmann reads input one char at a
// time through the iterator, so `*consumed` is the byte offset just past the last token read).
struct CountingIter {
  using iterator_category = std::forward_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;
  const char* p = nullptr;
  const char* base = nullptr;
  std::size_t* consumed = nullptr;
  reference operator*() const { return *p; }
  CountingIter& operator++() {
    ++p;
    if (consumed) *consumed = static_cast<std::size_t>(p - base);
    return *this;
  }
  CountingIter operator++(int) {
    CountingIter t = *this;
    ++*this;
    return t;
  }
  bool operator==(const CountingIter& o) const { return p == o.p; }
  bool operator!=(const CountingIter& o) const { return p != o.p; }
};

// Lines of every key and array element, by JSON pointer ("/steps/2/narration").
class LineMap {
 public:
  explicit LineMap(std::string_view text) : m_text(text) {}

  json parse() {
    std::size_t consumed = 0;
    CountingIter first{m_text.data(), m_text.data(), &consumed};
    CountingIter last{m_text.data() + m_text.size(), m_text.data(), nullptr};
    struct Frame {
      bool array = false;
      std::int64_t index = -1;
      std::string key;
    };
    std::vector<Frame> stack;
    auto here = [&] { return line_at(consumed ? consumed - 1 : 0); };
    auto path = [&] {
      std::string s;
      for (const auto& f : stack) s += "/" + (f.array ? std::to_string(f.index) : f.key);
      return s;
    };
    auto element_starts = [&] {
      if (!stack.empty() && stack.back().array) {
        ++stack.back().index;
        m_lines[path()] = here();
      }
    };
    using E = json::parse_event_t;
    return json::parse(first, last, [&](int, E e, json& v) {
      switch (e) {
        case E::object_start:
        case E::array_start:
          element_starts();
          stack.push_back({e == E::array_start, -1, {}});
          break;
        case E::key:
          stack.back().key = v.get<std::string>();
          m_lines[path()] = here();
          break;
        case E::value:
          element_starts();
          break;
        case E::object_end:
        case E::array_end:
          stack.pop_back();
          break;
      }
      return true;
    });
  }

  int line_at(std::size_t byte) const {
    const auto end = m_text.begin() + static_cast<std::ptrdiff_t>(std::min(byte, m_text.size()));
    return 1 + static_cast<int>(std::count(m_text.begin(), end, '\n'));
  }
  int line(const std::string& pointer) const {
    const auto it = m_lines.find(pointer);
    return it == m_lines.end() ? 0 : it->second;
  }

 private:
  std::string_view m_text;
  std::map<std::string, int> m_lines;
};

// The parse position: a JSON pointer and its readable name ("steps[2].view").
struct Where {
  std::string pointer, name;
  Where operator/(const std::string& key) const {
    return {pointer + "/" + key, name.empty() ? key : name + "." + key};
  }
  Where operator[](std::size_t i) const {
    return {pointer + "/" + std::to_string(i), name + "[" + std::to_string(i) + "]"};
  }
};

class Parser {
 public:
  Parser(const LineMap& lines, std::string source, std::filesystem::path dir)
      : m_lines(lines), m_source(std::move(source)), m_dir(std::move(dir)) {}

  [[noreturn]] void fail(const Where& w, const std::string& message) const {
    const int line = m_lines.line(w.pointer);
    throw ScenarioError(m_source + ":" + (line ? " line " + std::to_string(line) + ":" : "") + " " +
                        w.name + ": " + message);
  }
  int line(const Where& w) const { return m_lines.line(w.pointer); }

  // Every key of `j` must be one of `allowed`.
  void keys(const json& j, const Where& w, std::initializer_list<const char*> allowed) const {
    if (!j.is_object()) fail(w, std::string("must be a JSON object {...}, got ") + j.type_name());
    for (const auto& item : j.items()) {
      // A named copy, not a structured binding: clang 14 cannot capture those in a lambda.
      const std::string& key = item.key();
      if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; })) {
        std::string list;
        for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
        fail(w / key, "unknown key (allowed here: " + list + "; see assets/lessons/README.md)");
      }
    }
  }
  std::string text(const json& v, const Where& w, bool required_non_empty = true) const {
    if (!v.is_string()) fail(w, std::string("must be a string, got ") + v.type_name());
    auto s = v.get<std::string>();
    if (required_non_empty && s.empty()) fail(w, "must not be empty");
    return s;
  }
  // Text a learner reads: its figures must be well formed and its formulas hold (bare numbers
  // are reported by lesson_bare_numbers, not refused: see lesson_text.hpp).
  std::string shown_text(const json& v, const Where& w) const {
    auto s = text(v, w);
    const auto errors = text_errors(s);
    if (!errors.empty()) fail(w, errors.front());
    return s;
  }
  std::int64_t integer(const json& v, const Where& w, std::int64_t lo, std::int64_t hi) const {
    if (!v.is_number_integer())
      fail(w, std::string("must be an integer, got ") + v.type_name() + " " + v.dump());
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi))
      fail(w, v.dump() + " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
    const auto x = v.get<std::int64_t>();
    if (x < lo || x > hi)
      fail(w, v.dump() + " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
    return x;
  }
  bool boolean(const json& v, const Where& w) const {
    if (!v.is_boolean()) fail(w, std::string("must be true or false, got ") + v.type_name());
    return v.get<bool>();
  }
  const json& array(const json& v, const Where& w) const {
    if (!v.is_array()) fail(w, std::string("must be a JSON array [...], got ") + v.type_name());
    return v;
  }

  Scenario scenario(const json& v, const Where& w) const {
    if (v.is_string()) {
      const std::string s = v.get<std::string>();
      std::filesystem::path p = s;
      if (s.find('/') == std::string::npos)
        p = assets_dir() / "scenarios" / s;
      else if (p.is_relative() && !m_dir.empty())
        p = m_dir / p;
      std::error_code ec;
      if (!std::filesystem::is_regular_file(p, ec))
        fail(w, "no scenario file \"" + s + "\" (a name in assets/scenarios/ or a path)");
      try {
        return load_scenario(p);
      } catch (const ScenarioError& e) {
        fail(w, e.what());
      }
    }
    if (!v.is_object())
      fail(w, std::string("must be a scenario file name or an inline scenario {...}, got ") +
                  v.type_name());
    try {
      return parse_scenario(v.dump(), "inline scenario");
    } catch (const ScenarioError& e) {
      // The scenario parser names the key in its message; point at that key's line.
      const std::string msg = e.what();
      for (const auto& [key, x] : v.items()) {
        (void)x;
        for (const std::string& form : {key + " =", key + " must", "\"" + key + "\""})
          if (msg.find(form) != std::string::npos) fail(w / key, msg);
      }
      fail(w, msg);
    }
  }

  LessonPosition position(const json& j, const Where& w) const {
    keys(j, w, {"event", "pid", "step", "op", "k", "start", "end"});
    LessonPosition p;
    p.line = line(w);
    constexpr std::int64_t kMax = std::int64_t(1) << 50;
    for (const auto& [key, v] : j.items()) {
      const Where at = w / key;
      if (key == "event")
        p.event = integer(v, at, 0, kMax);
      else if (key == "pid")
        p.pid = integer(v, at, 0, kMax);
      else if (key == "step")
        p.step = integer(v, at, 0, kMax);
      else if (key == "k")
        p.k = integer(v, at, 0, kMax);
      else if (key == "start")
        p.start = boolean(v, at);
      else if (key == "end")
        p.end = boolean(v, at);
      else if (key == "op") {
        const auto s = text(v, at);
        for (auto op :
             {sim::StepOp::map, sim::StepOp::load_a, sim::StepOp::load_b, sim::StepOp::dot,
              sim::StepOp::load, sim::StepOp::transpose, sim::StepOp::store})
          if (sim::to_string(op) == s) p.op = op;
        if (!p.op)
          fail(at,
               "\"" + s + "\" is unknown: map | load_a | load_b | dot | load | transpose | store");
      }
    }
    const int forms = int(p.event.has_value()) + int(p.pid.has_value()) + int(p.start) + int(p.end);
    if (forms != 1)
      fail(w, "give exactly one of event, pid (with step, or op and k), start or end");
    if (!p.pid && (p.step || p.op || p.k)) fail(w, "step, op and k need a pid");
    if (p.pid && p.step && (p.op || p.k)) fail(w, "give either step or op (and k), not both");
    if (p.k && !p.op) fail(w / "k", "k needs an op (load_a, load_b or dot)");
    if (p.pid && !p.step && !p.op) fail(w, "a pid needs a step, or an op (and k)");
    return p;
  }

  LessonHighlight highlight(const json& j, const Where& w) const {
    keys(j, w, {"tiles", "pids", "code_lines", "lanes", "table_rows"});
    LessonHighlight h;
    h.line = line(w);
    constexpr std::int64_t kMax = std::int64_t(1) << 40;
    for (const auto& [key, v] : j.items()) {
      const Where at = w / key;
      const json& a = array(v, at);
      for (std::size_t i = 0; i < a.size(); ++i) {
        const Where e = at[i];
        if (key == "pids") {
          h.pids.push_back(integer(a[i], e, 0, kMax));
        } else if (key == "code_lines") {
          h.code_lines.push_back(static_cast<int>(integer(a[i], e, 1, 10000)));
        } else if (key == "table_rows") {
          h.table_rows.push_back(text(a[i], e));
        } else if (key == "lanes") {
          keys(a[i], e, {"row", "col"});
          if (!a[i].contains("row") || !a[i].contains("col")) fail(e, "a lane needs row and col");
          h.lanes.push_back({static_cast<int>(integer(a[i]["row"], e / "row", 0, 255)),
                             static_cast<int>(integer(a[i]["col"], e / "col", 0, 255))});
        } else if (key == "tiles") {
          keys(a[i], e, {"matrix", "row", "col"});
          if (!a[i].contains("matrix") || !a[i].contains("row") || !a[i].contains("col"))
            fail(e, "a tile needs matrix, row and col");
          LessonTile t;
          const auto m = text(a[i]["matrix"], e / "matrix");
          if (m == "A" || m == "in")
            t.matrix = sim::Operand::a;
          else if (m == "B")
            t.matrix = sim::Operand::b;
          else if (m == "C" || m == "out")
            t.matrix = sim::Operand::c;
          else
            fail(e / "matrix", "\"" + m + "\" is unknown: A | B | C (matmul), in | out");
          t.row = integer(a[i]["row"], e / "row", 0, kMax);
          t.col = integer(a[i]["col"], e / "col", 0, kMax);
          h.tiles.push_back(t);
        }
      }
    }
    return h;
  }

  LessonStep step(const json& j, const Where& w) const {
    keys(j, w,
         {"title", "scenario", "view", "position", "highlight", "narration", "question",
          "hide_rows"});
    LessonStep s;
    s.line = line(w);
    for (const char* required : {"view", "position", "narration"})
      if (!j.contains(required)) fail(w, std::string("missing key \"") + required + "\"");
    for (const auto& [key, v] : j.items()) {
      const Where at = w / key;
      if (key == "title") {
        s.title = shown_text(v, at);
      } else if (key == "scenario") {
        s.scenario = scenario(v, at);
      } else if (key == "view") {
        s.view = text(v, at);
        const auto& views = lesson_views();
        if (std::find(views.begin(), views.end(), s.view) == views.end()) {
          std::string list;
          for (const auto& x : views) list += (list.empty() ? "" : " | ") + x;
          fail(at, "\"" + s.view + "\" is not a view: " + list);
        }
      } else if (key == "position") {
        s.position = position(v, at);
      } else if (key == "highlight") {
        s.highlight = highlight(v, at);
      } else if (key == "narration") {
        s.narration = shown_text(v, at);
        if (s.narration.size() > 600) fail(at, "is longer than 600 characters (1-3 sentences)");
      } else if (key == "hide_rows") {
        const json& a = array(v, at);
        for (std::size_t i = 0; i < a.size(); ++i) s.hide_rows.push_back(text(a[i], at[i]));
      } else if (key == "question") {
        keys(v, at, {"text", "answer"});
        if (!v.contains("text") || !v.contains("answer"))
          fail(at, "a question needs text and answer");
        s.question = LessonQuestion{shown_text(v["text"], at / "text"),
                                    shown_text(v["answer"], at / "answer")};
      }
    }
    return s;
  }

  Lesson lesson(const json& j) const {
    const Where top{};
    keys(j, top, {"title", "summary", "scenario", "steps"});
    for (const char* required : {"title", "scenario", "steps"})
      if (!j.contains(required)) fail(top, std::string("missing key \"") + required + "\"");
    Lesson l;
    l.title = shown_text(j["title"], top / "title");
    if (j.contains("summary")) l.summary = text(j["summary"], top / "summary");
    l.scenario = scenario(j["scenario"], top / "scenario");
    const json& steps = array(j["steps"], top / "steps");
    if (steps.empty() || steps.size() > 64) fail(top / "steps", "a lesson has 1..64 steps");
    for (std::size_t i = 0; i < steps.size(); ++i)
      l.steps.push_back(step(steps[i], (top / "steps")[i]));
    if (l.steps.back().question)
      fail((top / "steps")[steps.size() - 1] / "question",
           "the last step cannot ask: its answer is revealed by the next step");
    return l;
  }

 private:
  const LineMap& m_lines;
  std::string m_source;
  std::filesystem::path m_dir;
};

}  // namespace

const std::vector<std::string>& lesson_views() {
  static const std::vector<std::string> v = {"launch_grid", "compare", "memory",  "sweep",
                                             "warps",       "gpu",     "compiler"};
  return v;
}

Lesson parse_lesson(std::string_view text, const std::string& source,
                    const std::filesystem::path& dir) {
  if (text.size() > kMaxScenarioBytes)
    throw ScenarioError(source + ": file is " + std::to_string(text.size()) +
                        " bytes; a lesson may be at most " + std::to_string(kMaxScenarioBytes));
  LineMap lines(text);
  json j;
  try {
    j = lines.parse();
  } catch (const json::parse_error& e) {
    throw ScenarioError(source + ": line " +
                        std::to_string(lines.line_at(e.byte ? e.byte - 1 : 0)) +
                        ": not valid JSON: " + e.what());
  } catch (const json::exception& e) {
    throw ScenarioError(source + ": not valid JSON: " + e.what());
  }
  if (!j.is_object()) throw ScenarioError(source + ": the top level must be a JSON object {...}");
  return Parser(lines, source, dir).lesson(j);
}

Lesson load_lesson(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw ScenarioError(path.string() + ": no such lesson file");
  if (std::filesystem::file_size(path, ec) > kMaxScenarioBytes)
    throw ScenarioError(path.string() + ": file is larger than " +
                        std::to_string(kMaxScenarioBytes) + " bytes");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path.string() + ": cannot open for reading");
  std::ostringstream buf;
  buf << in.rdbuf();
  Lesson l = parse_lesson(buf.str(), path.string(), path.parent_path());
  l.name = path.stem().string();
  return l;
}

std::vector<LessonEntry> list_lessons(const std::filesystem::path& dir) {
  std::vector<LessonEntry> out;
  std::error_code ec;
  for (const auto& f : std::filesystem::directory_iterator(dir, ec)) {
    // quotes.json beside the lessons holds the seed quotes they cite (quotes.hpp), not a lesson.
    if (f.path().extension() != ".json" || f.path().filename() == "quotes.json") continue;
    LessonEntry& e = out.emplace_back(LessonEntry{f.path().stem().string(), {}, {}, f.path(), {}});
    try {
      const Lesson l = load_lesson(f.path());
      e.title = l.title;
      e.summary = l.summary;
    } catch (const std::exception& err) {
      e.error = err.what();
    }
  }
  // File-name order is the teaching order (01_..., 02_...).
  std::sort(out.begin(), out.end(),
            [](const LessonEntry& a, const LessonEntry& b) { return a.path < b.path; });
  return out;
}

std::filesystem::path find_lesson(const std::string& name_or_path) {
  std::filesystem::path p = name_or_path;
  std::error_code ec;
  if (std::filesystem::is_regular_file(p, ec)) return p;
  return assets_dir() / "lessons" / (p.extension() == ".json" ? p.string() : p.string() + ".json");
}

}  // namespace tilesim::scenario
