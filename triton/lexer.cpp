// Python's tokenizer rules, reduced to what kernels use: indentation is measured at the start of
// each logical line (tabs to the next multiple of 8), brackets suspend it, and a dedent must land
// on an enclosing level.
#include "triton/lexer.hpp"

#include <array>
#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace tilesim::triton {
namespace {

// Longest first, so "//=" wins over "//" and "/".
constexpr std::array<std::string_view, 47> kOps{
    "**=", "//=", ">>=", "<<=", "...", "**", "//", "<<", ">>", "<=", ">=", "==",
    "!=",  "->",  "+=",  "-=",  "*=",  "/=", "%=", "&=", "|=", "^=", ":=", "@=",
    "+",   "-",   "*",   "/",   "%",   "&",  "|",  "^",  "~",  "<",  ">",  "(",
    ")",   "[",   "]",   "{",   "}",   ",",  ":",  ".",  ";",  "@",  "="};

class Lexer {
 public:
  Lexer(std::string_view src, const std::string& file) : m_src(src), m_file(file) {}

  std::vector<Token> run() {
    if (m_src.size() > kMaxSourceBytes)
      fail({1, 1}, "the file has " + std::to_string(m_src.size()) + " bytes: at most " +
                       std::to_string(kMaxSourceBytes) + " are read");
    m_indents.push_back(0);
    bool line_start = true;
    while (m_i < m_src.size()) {
      if (line_start && m_depth == 0) {
        if (!indentation()) continue;  // a blank or comment-only line
        line_start = false;
      }
      const char c = m_src[m_i];
      if (c == '\n') {
        if (m_depth == 0) {
          push(TokenKind::newline, "", pos());
          line_start = true;
        }
        advance();
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
        advance();
      } else if (c == '#') {
        while (m_i < m_src.size() && m_src[m_i] != '\n') advance();
      } else if (c == '\\') {
        const SourcePos p = pos();
        advance();
        if (m_i < m_src.size() && m_src[m_i] == '\r') advance();
        if (m_i >= m_src.size() || m_src[m_i] != '\n') fail(p, "a backslash must end its line");
        advance();
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        name_or_string();
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '.' && m_i + 1 < m_src.size() &&
                  std::isdigit(static_cast<unsigned char>(m_src[m_i + 1])))) {
        number();
      } else if (c == '"' || c == '\'') {
        string_literal(pos());
      } else {
        op();
      }
    }
    const SourcePos p = pos();
    if (m_depth > 0) fail(m_open.back(), "this bracket is never closed");
    if (!m_out.empty() && m_out.back().kind != TokenKind::newline) push(TokenKind::newline, "", p);
    while (m_indents.size() > 1) {
      m_indents.pop_back();
      push(TokenKind::dedent, "", p);
    }
    push(TokenKind::end, "", p);
    return std::move(m_out);
  }

 private:
  [[noreturn]] void fail(SourcePos p, const std::string& msg) const {
    throw SourceError(m_file, p, msg);
  }
  SourcePos pos() const { return {m_line, m_col}; }
  void advance() {
    if (m_src[m_i] == '\n') {
      ++m_line;
      m_col = 1;
    } else {
      ++m_col;
    }
    ++m_i;
  }
  Token& push(TokenKind k, std::string text, SourcePos p) {
    if (m_out.size() >= kMaxTokens)
      fail(p, "more than " + std::to_string(kMaxTokens) + " tokens: the file is too long");
    Token t;
    t.kind = k;
    t.text = std::move(text);
    t.pos = p;
    m_out.push_back(std::move(t));
    return m_out.back();
  }

  // Measures the indentation of a logical line and emits INDENT/DEDENT; false for a line with
  // nothing but spaces or a comment (consumed, emits nothing).
  bool indentation() {
    int width = 0;
    while (m_i < m_src.size() &&
           (m_src[m_i] == ' ' || m_src[m_i] == '\t' || m_src[m_i] == '\f' || m_src[m_i] == '\r')) {
      if (m_src[m_i] == '\t')
        width = (width / 8 + 1) * 8;
      else if (m_src[m_i] == ' ')
        ++width;
      advance();
    }
    if (m_i >= m_src.size()) return false;
    if (m_src[m_i] == '\n' || m_src[m_i] == '#') {
      while (m_i < m_src.size() && m_src[m_i] != '\n') advance();
      if (m_i < m_src.size()) advance();
      return false;
    }
    const SourcePos p = pos();
    if (width > m_indents.back()) {
      if (static_cast<int>(m_indents.size()) > kMaxNesting) fail(p, "blocks nested too deeply");
      m_indents.push_back(width);
      push(TokenKind::indent, "", p);
    }
    while (width < m_indents.back()) {
      m_indents.pop_back();
      push(TokenKind::dedent, "", p);
    }
    if (width != m_indents.back()) fail(p, "this line's indentation matches no enclosing block");
    return true;
  }

  void name_or_string() {
    const SourcePos p = pos();
    const std::size_t b = m_i;
    while (m_i < m_src.size() &&
           (std::isalnum(static_cast<unsigned char>(m_src[m_i])) || m_src[m_i] == '_'))
      advance();
    const std::string_view word = m_src.substr(b, m_i - b);
    if (m_i < m_src.size() && (m_src[m_i] == '"' || m_src[m_i] == '\'') && word.size() <= 2) {
      // String prefixes: r (raw) and u read as plain text; f-strings and bytes are outside.
      for (char ch : word)
        if (ch != 'r' && ch != 'R' && ch != 'u' && ch != 'U')
          fail(p, std::string(word) + "-prefixed strings are not supported");
      string_literal(p, word.find_first_of("rR") != std::string_view::npos);
      return;
    }
    push(TokenKind::name, std::string(word), p);
  }

  void string_literal(SourcePos p, bool raw = false) {
    const char q = m_src[m_i];
    const bool triple = m_src.substr(m_i, 3) == std::string_view(std::string(3, q));
    for (int i = 0; i < (triple ? 3 : 1); ++i) advance();
    std::string value;
    while (true) {
      if (m_i >= m_src.size()) fail(p, "this string is never closed");
      const char c = m_src[m_i];
      if (c == '\n' && !triple) fail(p, "this string is never closed on its line");
      if (c == q && (!triple || m_src.substr(m_i, 3) == std::string_view(std::string(3, q)))) {
        for (int i = 0; i < (triple ? 3 : 1); ++i) advance();
        break;
      }
      if (c == '\\' && !raw && m_i + 1 < m_src.size()) {
        advance();
        const char e = m_src[m_i];
        value += e == 'n' ? '\n' : e == 't' ? '\t' : e;
        advance();
        continue;
      }
      value += c;
      advance();
    }
    push(TokenKind::string, std::move(value), p);
  }

  void number() {
    const SourcePos p = pos();
    const std::size_t b = m_i;
    bool real = false;
    const auto digits = [&] {
      while (m_i < m_src.size() &&
             (std::isalnum(static_cast<unsigned char>(m_src[m_i])) || m_src[m_i] == '_')) {
        const char c = m_src[m_i];
        if ((c == 'e' || c == 'E') && m_i + 1 < m_src.size() &&
            (m_src[m_i + 1] == '-' || m_src[m_i + 1] == '+') &&
            !(m_src.substr(b, 2) == "0x" || m_src.substr(b, 2) == "0X")) {
          real = true;
          advance();
        }
        advance();
      }
    };
    digits();
    if (m_i < m_src.size() && m_src[m_i] == '.') {
      real = true;
      advance();
      digits();
    }
    std::string text;
    for (char c : m_src.substr(b, m_i - b))
      if (c != '_') text += c;
    const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    if (!hex && text.find_first_of("eE") != std::string::npos) real = true;
    char* end = nullptr;
    errno = 0;
    if (real) {
      const double v = std::strtod(text.c_str(), &end);
      if (*end || errno) fail(p, "\"" + text + "\" is not a number");
      push(TokenKind::real, text, p).fval = v;
    } else {
      const long long v = std::strtoll(text.c_str(), &end, hex ? 16 : 10);
      if (*end || errno) fail(p, "\"" + text + "\" is not an integer that fits in 64 bits");
      push(TokenKind::integer, text, p).ival = v;
    }
  }

  void op() {
    const SourcePos p = pos();
    for (std::string_view o : kOps) {
      if (m_src.substr(m_i, o.size()) != o) continue;
      for (std::size_t i = 0; i < o.size(); ++i) advance();
      if (o == "(" || o == "[" || o == "{") {
        if (m_depth >= kMaxNesting) fail(p, "brackets nested too deeply");
        ++m_depth;
        m_open.push_back(p);
      } else if (o == ")" || o == "]" || o == "}") {
        if (m_depth == 0) fail(p, "\"" + std::string(o) + "\" closes no bracket");
        --m_depth;
        m_open.pop_back();
      }
      push(TokenKind::op, std::string(o), p);
      return;
    }
    const unsigned char c = static_cast<unsigned char>(m_src[m_i]);
    fail(p, c >= 0x80
                ? std::string("a non-ASCII character outside a string or comment")
                : "the character '" + std::string(1, static_cast<char>(c)) + "' is not Python");
  }

  std::string_view m_src;
  const std::string& m_file;
  std::size_t m_i = 0;
  int m_line = 1, m_col = 1;
  int m_depth = 0;
  std::vector<SourcePos> m_open;
  std::vector<int> m_indents;
  std::vector<Token> m_out;
};

}  // namespace

std::vector<Token> tokenize(std::string_view source, const std::string& file) {
  return Lexer(source, file).run();
}

}  // namespace tilesim::triton
