// Lesson text (see lesson_text.hpp): segments, bare numbers, and a small evaluator for worked
// formulas (exact rationals would be overkill: the curriculum's formulas are small integers and
// a few decimals, so doubles with a written precision suffice).
#include "scenario/lesson_text.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>

namespace tilesim::scenario {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
// Bytes of UTF-8 sequences count as letters: a Cyrillic word, or "8192³" (a number with a unit).
bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool is_word(char c) {
  return is_letter(c) || is_digit(c);
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// --- formulas ------------------------------------------------------------------------------

struct Token {
  enum Kind { number, name, op, lparen, rparen, comma, other } kind = other;
  std::string text;
  double value = 0;
  int decimals = 0;  // digits after the point of a number literal
};

std::vector<Token> lex(std::string_view s) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == ' ' || c == '\t') {
      ++i;
    } else if (is_digit(c) || (c == '.' && i + 1 < s.size() && is_digit(s[i + 1]))) {
      std::size_t j = i;
      while (j < s.size() && is_digit(s[j])) ++j;
      int decimals = 0;
      if (j + 1 < s.size() && s[j] == '.' && is_digit(s[j + 1])) {
        ++j;
        while (j < s.size() && is_digit(s[j])) ++j, ++decimals;
      }
      const std::string t(s.substr(i, j - i));
      out.push_back({Token::number, t, std::stod(t), decimals});
      i = j;
    } else if (is_letter(c)) {
      std::size_t j = i;
      while (j < s.size() && (is_word(s[j]) || s[j] == '.')) ++j;
      const std::string t(s.substr(i, j - i));
      // A spaced x between two operands multiplies (9 x 9 = 81).
      const bool after_operand =
          !out.empty() && (out.back().kind == Token::number || out.back().kind == Token::rparen);
      if (t == "x" && after_operand)
        out.push_back({Token::op, "*"});
      else
        out.push_back({Token::name, t});
      i = j;
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      out.push_back({Token::op, "//"});
      i += 2;
    } else if (c == '+' || c == '-' || c == '*' || c == '/' || c == '%' || c == '^') {
      out.push_back({Token::op, std::string(1, c)});
      ++i;
    } else if (c == '(') {
      out.push_back({Token::lparen, "("});
      ++i;
    } else if (c == ')') {
      out.push_back({Token::rparen, ")"});
      ++i;
    } else if (c == ',') {
      out.push_back({Token::comma, ","});
      ++i;
    } else {
      out.push_back({Token::other, std::string(1, c)});
      ++i;
    }
  }
  return out;
}

// Recursive descent over one side; `ok` turns false on anything that is not arithmetic.
class Eval {
 public:
  explicit Eval(const std::vector<Token>& t) : m_t(t) {}
  std::optional<double> run() {
    if (m_t.empty()) return std::nullopt;
    const double v = sum();
    if (!m_ok || m_i != m_t.size()) return std::nullopt;
    return v;
  }

 private:
  const Token* peek() const { return m_i < m_t.size() ? &m_t[m_i] : nullptr; }
  bool take_op(const char* op) {
    const Token* t = peek();
    if (t && t->kind == Token::op && t->text == op) return ++m_i, true;
    return false;
  }
  double sum() {
    double v = product();
    while (m_ok) {
      if (take_op("+"))
        v += product();
      else if (take_op("-"))
        v -= product();
      else
        break;
    }
    return v;
  }
  double product() {
    double v = unary();
    while (m_ok) {
      if (take_op("*")) {
        v *= unary();
      } else if (take_op("//")) {
        const double d = unary();
        if (d == 0) return m_ok = false, 0;
        v = std::floor(v / d);
      } else if (take_op("/")) {
        const double d = unary();
        if (d == 0) return m_ok = false, 0;
        v /= d;
      } else if (take_op("%")) {
        const double d = unary();
        if (d == 0) return m_ok = false, 0;
        v = v - d * std::floor(v / d);  // Python's %: the sign of the divisor
      } else {
        break;
      }
    }
    return v;
  }
  double unary() {
    if (take_op("-")) return -unary();
    return power();
  }
  double power() {
    const double base = atom();
    if (take_op("^")) return std::pow(base, unary());  // right-associative
    return base;
  }
  double atom() {
    const Token* t = peek();
    if (!t) return m_ok = false, 0;
    if (t->kind == Token::number) return ++m_i, t->value;
    if (t->kind == Token::lparen) {
      ++m_i;
      const double v = sum();
      if (!peek() || peek()->kind != Token::rparen) return m_ok = false, 0;
      ++m_i;
      return v;
    }
    if (t->kind == Token::name && (t->text == "cdiv" || t->text == "min" || t->text == "max")) {
      const std::string f = t->text;
      ++m_i;
      if (!peek() || peek()->kind != Token::lparen) return m_ok = false, 0;
      ++m_i;
      std::vector<double> args{sum()};
      while (m_ok && peek() && peek()->kind == Token::comma) ++m_i, args.push_back(sum());
      if (!peek() || peek()->kind != Token::rparen) return m_ok = false, 0;
      ++m_i;
      if (f == "cdiv") {
        if (args.size() != 2 || args[1] == 0) return m_ok = false, 0;
        return std::ceil(args[0] / args[1]);
      }
      double v = args[0];
      for (double a : args) v = f == "min" ? std::min(v, a) : std::max(v, a);
      return v;
    }
    return m_ok = false, 0;  // a name or another character: not a numeric side
  }

  const std::vector<Token>& m_t;
  std::size_t m_i = 0;
  bool m_ok = true;
};

std::string trim(std::string_view s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}

std::string number_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

}  // namespace

std::vector<TextSegment> split_lesson_text(std::string_view s) {
  std::vector<TextSegment> out;
  std::string plain;
  auto flush = [&] {
    if (!plain.empty()) out.push_back({TextPart::plain, plain});
    plain.clear();
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '{' || c == '`') {
      const char close = c == '{' ? '}' : '`';
      const std::size_t end = s.find(close, i + 1);
      const std::size_t nested = c == '{' ? s.find('{', i + 1) : std::string_view::npos;
      if (end == std::string_view::npos || nested < end)
        throw ScenarioError(std::string("unbalanced '") + c + "' at character " +
                            std::to_string(i + 1) + ": a figure is {NAME}, a formula `...`");
      flush();
      const std::string inner(s.substr(i + 1, end - i - 1));
      if (c == '{' && trim(inner).empty())
        throw ScenarioError("empty figure {} at character " + std::to_string(i + 1));
      out.push_back(
          {c == '{' ? TextPart::figure : TextPart::formula, c == '{' ? trim(inner) : inner});
      i = end;
    } else if (c == '}') {
      throw ScenarioError("unbalanced '}' at character " + std::to_string(i + 1));
    } else {
      plain += c;
    }
  }
  flush();
  return out;
}

std::vector<std::string> bare_numbers(std::string_view s) {
  std::vector<std::string> out;
  std::string previous_word;
  std::size_t i = 0;
  while (i < s.size()) {
    if (!is_word(s[i])) {
      ++i;
      continue;
    }
    // A word: letters, digits, and a point between two of them (tl.float16, 1.67).
    std::size_t j = i;
    while (j < s.size() &&
           (is_word(s[j]) || (s[j] == '.' && j + 1 < s.size() && is_word(s[j + 1]))))
      ++j;
    const std::string word(s.substr(i, j - i));
    const bool has_digit = word.find_first_of("0123456789") != std::string::npos;
    const bool all_digits = word.find_first_not_of("0123456789") == std::string::npos;
    const bool seed =
        all_digits && (lower(previous_word) == "seed" || lower(previous_word) == "seeds");
    // A word that starts with a letter is a name (H100, fp16, L2); one that starts with a digit
    // is a number, with or without a unit glued on (1.67x, 50MB, 8192³).
    if (has_digit && !is_letter(word[0]) && !seed) {
      std::size_t k = 0;
      while (k < word.size() && (is_digit(word[k]) || word[k] == '.')) ++k;
      out.push_back(word.substr(0, k));
    }
    previous_word = word;
    i = j;
  }
  return out;
}

std::optional<std::string> formula_error(std::string_view formula) {
  // Split at a lone '=' (not ==, <=, >=, !=).
  std::vector<std::string> sides;
  std::string cur;
  for (std::size_t i = 0; i < formula.size(); ++i) {
    const char c = formula[i];
    const bool lone =
        c == '=' &&
        (i == 0 || std::string_view("=<>!").find(formula[i - 1]) == std::string_view::npos) &&
        (i + 1 >= formula.size() || formula[i + 1] != '=');
    if (lone) {
      sides.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  sides.push_back(trim(cur));
  if (sides.size() < 2) return std::nullopt;
  struct Side {
    std::string text;
    double value;
    std::optional<int> literal_decimals;  // a lone number literal: its written precision
  };
  std::vector<Side> numeric;
  for (const auto& side : sides) {
    const auto tokens = lex(side);
    if (const auto v = Eval(tokens).run()) {
      std::optional<int> decimals;
      // A decimal is compared at the precision written; an integer exactly (574 / 64 = 9 is
      // false: `/` divides exactly).
      if (tokens.size() == 1 && tokens[0].decimals > 0) decimals = tokens[0].decimals;
      numeric.push_back({side, *v, decimals});
    }
  }
  for (std::size_t i = 1; i < numeric.size(); ++i) {
    const Side& a = numeric[0];
    const Side& b = numeric[i];
    bool equal;
    if (a.literal_decimals || b.literal_decimals) {
      const Side& lit = b.literal_decimals ? b : a;
      const Side& other = b.literal_decimals ? a : b;
      const double scale = std::pow(10.0, *lit.literal_decimals);
      equal = std::fabs(std::round(other.value * scale) - std::round(lit.value * scale)) < 0.5;
    } else {
      equal = std::fabs(a.value - b.value) <= 1e-9 * std::max(1.0, std::fabs(a.value));
    }
    if (!equal) {
      const Side& expr = a.literal_decimals && !b.literal_decimals ? b : a;
      const Side& other = &expr == &a ? b : a;
      return "`" + std::string(formula) + "` does not hold: " + expr.text + " is " +
             number_text(expr.value) + ", not " + other.text;
    }
  }
  return std::nullopt;
}

std::vector<std::string> text_errors(std::string_view s) {
  std::vector<std::string> out;
  std::vector<TextSegment> segs;
  try {
    segs = split_lesson_text(s);
  } catch (const ScenarioError& e) {
    out.push_back(e.what());
    return out;
  }
  for (const auto& seg : segs) {
    if (seg.part == TextPart::figure) {
      if (auto e = figure_name_error(seg.text)) out.push_back("{" + seg.text + "}: " + *e);
    } else if (seg.part == TextPart::formula) {
      if (auto e = formula_error(seg.text)) out.push_back(*e);
    }
  }
  return out;
}

std::vector<std::string> figure_names(std::string_view s) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& seg : split_lesson_text(s))
    if (seg.part == TextPart::figure && seen.insert(seg.text).second) out.push_back(seg.text);
  return out;
}

std::vector<std::pair<std::string, const std::string*>> step_texts(const LessonStep& s) {
  std::vector<std::pair<std::string, const std::string*>> out;
  if (!s.title.empty()) out.push_back({"title", &s.title});
  out.push_back({"narration", &s.narration});
  if (s.question) {
    out.push_back({"question.text", &s.question->text});
    out.push_back({"question.answer", &s.question->answer});
  }
  return out;
}

std::string BareNumber::message() const {
  const std::string where = step < 0 ? field : "steps[" + std::to_string(step) + "]." + field;
  return where + (line ? " (line " + std::to_string(line) + ")" : "") + ": bare number \"" +
         number +
         "\": write a figure {NAME}, a worked formula `...` or a seed quote {quote.SEED.ID} "
         "(assets/lessons/README.md, Figures)";
}

std::vector<BareNumber> lesson_bare_numbers(const Lesson& l) {
  std::vector<BareNumber> out;
  auto scan = [&](int step, const std::string& field, const std::string& text, int line) {
    std::vector<TextSegment> segs;
    try {
      segs = split_lesson_text(text);
    } catch (const ScenarioError&) {
      return;  // refused at load already
    }
    for (const auto& seg : segs)
      if (seg.part == TextPart::plain)
        for (const auto& n : bare_numbers(seg.text)) out.push_back({step, field, n, line});
  };
  scan(-1, "title", l.title, 0);
  for (std::size_t i = 0; i < l.steps.size(); ++i)
    for (const auto& [field, text] : step_texts(l.steps[i]))
      scan(static_cast<int>(i), field, *text, l.steps[i].line);
  return out;
}

}  // namespace tilesim::scenario
