// Recursive descent over Python's grammar, one function per precedence level (lowest first:
// conditional, or, and, not, comparison, |, ^, &, shifts, + -, * / // % @, unary, **, primary).
// Depth is bounded twice: the parser's own recursion (brackets, unary chains) and the height of
// every tree it builds (a + a + ... is iterative to parse but recursive to evaluate).
#include "triton/parser.hpp"

#include <algorithm>
#include <set>

#include "triton/lexer.hpp"

namespace tilesim::triton {
namespace {

constexpr int kMaxExprHeight = 256;

// Statements Python has and the subset does not: refused by name at their keyword.
const std::set<std::string_view> kRefusedKeywords{
    "while",  "break",    "continue", "def",    "class",
    "with",   "try",      "raise",    "import", "from",
    "global", "nonlocal", "del",      "lambda", "yield",
    "async",  "await",    "assert",   "match",  "print_function_placeholder"};

class Parser {
 public:
  Parser(std::vector<Token> toks, const std::string& file) : m_t(std::move(toks)), m_file(file) {}

  // Top level: decorators and defs are read; anything else is skipped a statement at a time.
  std::vector<Function> module(std::vector<std::string>* names, std::string_view wanted) {
    std::vector<Function> out;
    bool jit = false;
    while (!at(TokenKind::end)) {
      if (peek().is_op("@")) {
        jit = decorator() || jit;
      } else if (peek().is_name("def") && jit) {
        Function f = function();
        names->push_back(f.name);
        if (wanted.empty() || f.name == wanted) out.push_back(std::move(f));
        jit = false;
      } else {
        skip_statement();
        jit = false;
      }
    }
    return out;
  }

 private:
  // ---- tokens
  const Token& peek(std::size_t ahead = 0) const {
    return m_t[std::min(m_i + ahead, m_t.size() - 1)];
  }
  bool at(TokenKind k) const { return peek().kind == k; }
  const Token& next() {
    const Token& t = peek();
    if (m_i < m_t.size() - 1) ++m_i;
    return t;
  }
  [[noreturn]] void fail(SourcePos p, const std::string& msg) const {
    throw SourceError(m_file, p, msg);
  }
  static std::string describe(const Token& t) {
    switch (t.kind) {
      case TokenKind::newline:
        return "the end of the line";
      case TokenKind::indent:
        return "an indented block";
      case TokenKind::dedent:
        return "the end of the block";
      case TokenKind::end:
        return "the end of the file";
      case TokenKind::string:
        return "a string";
      default:
        return "\"" + t.text + "\"";
    }
  }
  const Token& expect_op(std::string_view op) {
    if (!peek().is_op(op))
      fail(peek().pos, "expected \"" + std::string(op) + "\" but found " + describe(peek()));
    return next();
  }
  std::string expect_name() {
    if (!at(TokenKind::name)) fail(peek().pos, "expected a name but found " + describe(peek()));
    return next().text;
  }
  bool accept_op(std::string_view op) {
    if (!peek().is_op(op)) return false;
    next();
    return true;
  }

  // ---- top level
  bool decorator() {
    next();  // '@'
    const bool jit = peek().is_name("triton") && peek(1).is_op(".") && peek(2).is_name("jit");
    while (!at(TokenKind::newline) && !at(TokenKind::end)) next();
    if (at(TokenKind::newline)) next();
    return jit;
  }
  void skip_statement() {
    while (!at(TokenKind::newline) && !at(TokenKind::end)) {
      if (at(TokenKind::indent) || at(TokenKind::dedent)) break;
      next();
    }
    if (at(TokenKind::newline)) next();
    if (at(TokenKind::indent)) {
      int level = 0;
      do {
        if (at(TokenKind::indent)) ++level;
        if (at(TokenKind::dedent)) --level;
        next();
      } while (level > 0 && !at(TokenKind::end));
    } else if (at(TokenKind::dedent)) {
      next();  // a stray dedent at top level (cannot happen after a full block)
    }
  }

  Function function() {
    Function f;
    f.pos = next().pos;  // 'def'
    f.name = expect_name();
    expect_op("(");
    while (!peek().is_op(")")) {
      if (peek().is_op("*") || peek().is_op("**") || peek().is_op("/"))
        fail(peek().pos, "*args, **kwargs and positional-only markers are not supported");
      Param p;
      p.pos = peek().pos;
      p.name = expect_name();
      if (accept_op(":")) {
        const ExprPtr ann = test();
        p.constexpr_ = (ann->kind == ExprKind::attribute && ann->text == "constexpr") ||
                       (ann->kind == ExprKind::name && ann->text == "constexpr");
      }
      if (accept_op("=")) p.default_value = test();
      for (const auto& q : f.params)
        if (q.name == p.name) fail(p.pos, "parameter " + p.name + " is named twice");
      f.params.push_back(std::move(p));
      if (!accept_op(",")) break;
    }
    expect_op(")");
    if (accept_op("->")) (void)test();
    f.body = block();
    return f;
  }

  // ---- statements
  std::vector<StmtPtr> block() {
    expect_op(":");
    std::vector<StmtPtr> body;
    if (!at(TokenKind::newline)) {  // "if c: x = 1" on one line
      simple_line(&body);
      return body;
    }
    next();
    if (!at(TokenKind::indent)) fail(peek().pos, "expected an indented block");
    next();
    while (!at(TokenKind::dedent) && !at(TokenKind::end)) statement(&body);
    if (at(TokenKind::dedent)) next();
    return body;
  }

  void statement(std::vector<StmtPtr>* out) {
    const Token& t = peek();
    if (t.kind == TokenKind::indent) fail(t.pos, "unexpected indentation");
    if (t.kind == TokenKind::name) {
      if (t.text == "for") return out->push_back(for_loop());
      if (t.text == "if") return out->push_back(if_stmt());
      if (t.text == "elif" || t.text == "else") fail(t.pos, "\"" + t.text + "\" without an if");
      if (kRefusedKeywords.count(t.text))
        fail(t.pos, "\"" + t.text + "\" statements are not supported yet");
    }
    if (t.is_op("@")) fail(t.pos, "nested decorated functions are not supported");
    simple_line(out);
  }

  // Simple statements separated by ';' up to the end of the line.
  void simple_line(std::vector<StmtPtr>* out) {
    do {
      if (at(TokenKind::newline)) break;
      out->push_back(simple());
    } while (accept_op(";"));
    if (!at(TokenKind::newline) && !at(TokenKind::end))
      fail(peek().pos, "expected the end of the statement but found " + describe(peek()));
    if (at(TokenKind::newline)) next();
  }

  StmtPtr simple() {
    auto s = std::make_unique<Stmt>();
    s->pos = peek().pos;
    if (peek().kind == TokenKind::name && kRefusedKeywords.count(peek().text))
      fail(peek().pos, "\"" + peek().text + "\" statements are not supported yet");
    if (peek().is_name("pass")) {
      next();
      s->kind = StmtKind::pass;
      return s;
    }
    if (peek().is_name("return")) {
      next();
      s->kind = StmtKind::ret;
      if (!at(TokenKind::newline) && !peek().is_op(";")) s->value = test_list();
      return s;
    }
    ExprPtr first = test_list();
    static const std::set<std::string_view> kAug{
        "+=", "-=", "*=", "/=", "//=", "%=", "&=", "|=", "^=", "<<=", ">>=", "**=", "@="};
    if (peek().kind == TokenKind::op && kAug.count(peek().text)) {
      const Token& op = next();
      check_target(*first, /*aug=*/true);
      s->kind = StmtKind::aug_assign;
      s->op = op.text.substr(0, op.text.size() - 1);
      s->targets.push_back(std::move(first));
      s->value = test_list();
      return s;
    }
    if (peek().is_op(":")) fail(peek().pos, "annotated assignments are not supported yet");
    if (!peek().is_op("=")) {
      s->kind = StmtKind::expr;
      s->value = std::move(first);
      return s;
    }
    s->kind = StmtKind::assign;
    s->targets.push_back(std::move(first));
    while (accept_op("=")) s->targets.push_back(test_list());
    s->value = std::move(s->targets.back());
    s->targets.pop_back();
    for (const auto& t : s->targets) check_target(*t, false);
    return s;
  }

  void check_target(const Expr& e, bool aug) {
    if (e.kind == ExprKind::name) return;
    if (e.kind == ExprKind::tuple && !aug) {
      for (const auto& k : e.kids) check_target(*k, false);
      return;
    }
    if (e.kind == ExprKind::subscript || e.kind == ExprKind::attribute)
      fail(e.pos, "assigning to a subscript or attribute is not supported yet");
    fail(e.pos, "cannot assign to this expression");
  }

  StmtPtr for_loop() {
    auto s = std::make_unique<Stmt>();
    s->kind = StmtKind::for_loop;
    s->pos = next().pos;  // 'for'
    s->targets.push_back(target_list());
    check_target(*s->targets[0], false);
    if (!peek().is_name("in")) fail(peek().pos, "expected \"in\" but found " + describe(peek()));
    next();
    s->value = test_list();
    enter(s->pos);
    s->body = block();
    leave();
    if (peek().is_name("else")) fail(peek().pos, "for ... else is not supported yet");
    return s;
  }

  StmtPtr if_stmt() {
    auto s = std::make_unique<Stmt>();
    s->kind = StmtKind::if_stmt;
    s->pos = next().pos;  // 'if' or 'elif'
    s->test = test();
    enter(s->pos);
    s->body = block();
    if (peek().is_name("elif")) {
      s->orelse.push_back(if_stmt());
    } else if (peek().is_name("else")) {
      next();
      s->orelse = block();
    }
    leave();
    return s;
  }

  // ---- expressions
  void enter(SourcePos p) {
    if (++m_depth > kMaxNesting)
      fail(p, "nested too deeply (more than " + std::to_string(kMaxNesting) + " levels)");
  }
  void leave() { --m_depth; }

  ExprPtr node(ExprKind k, SourcePos p) {
    auto e = std::make_unique<Expr>();
    e->kind = k;
    e->pos = p;
    return e;
  }
  ExprPtr seal(ExprPtr e) {
    int h = 0;
    for (const auto& k : e->kids)
      if (k) h = std::max(h, k->depth);
    for (const auto& kw : e->kwargs) h = std::max(h, kw.second->depth);
    e->depth = h + 1;
    if (e->depth > kMaxExprHeight) fail(e->pos, "expression nested too deeply");
    return e;
  }
  ExprPtr make(ExprKind k, SourcePos p, std::string text, ExprPtr a, ExprPtr b = nullptr) {
    auto e = node(k, p);
    e->text = std::move(text);
    e->kids.push_back(std::move(a));
    if (b) e->kids.push_back(std::move(b));
    return seal(std::move(e));
  }

  // test (',' test)* [','] -> a tuple when there is a comma
  ExprPtr test_list() {
    const SourcePos p = peek().pos;
    ExprPtr first = test();
    if (!peek().is_op(",")) return first;
    auto t = node(ExprKind::tuple, p);
    t->kids.push_back(std::move(first));
    while (accept_op(",")) {
      if (ends_list()) break;
      t->kids.push_back(test());
    }
    return seal(std::move(t));
  }
  ExprPtr target_list() {
    const SourcePos p = peek().pos;
    ExprPtr first = bit_or();
    if (!peek().is_op(",")) return first;
    auto t = node(ExprKind::tuple, p);
    t->kids.push_back(std::move(first));
    while (accept_op(",")) {
      if (peek().is_name("in")) break;
      t->kids.push_back(bit_or());
    }
    return seal(std::move(t));
  }
  bool ends_list() const {
    const Token& t = peek();
    return t.kind == TokenKind::newline || t.kind == TokenKind::end || t.is_op(")") ||
           t.is_op("]") || t.is_op("=") || t.is_op(";") || t.is_op(":");
  }

  ExprPtr test() {
    enter(peek().pos);
    if (peek().is_name("lambda")) fail(peek().pos, "lambda is not supported yet");
    ExprPtr body = or_test();
    if (peek().is_name("if")) {
      const SourcePos p = next().pos;
      ExprPtr cond = or_test();
      if (!peek().is_name("else"))
        fail(peek().pos, "expected \"else\" in a conditional expression");
      next();
      auto e = node(ExprKind::if_exp, p);
      e->kids.push_back(std::move(body));
      e->kids.push_back(std::move(cond));
      e->kids.push_back(test());
      body = seal(std::move(e));
    }
    leave();
    return body;
  }
  ExprPtr bool_chain(const char* word, ExprPtr (Parser::*sub)()) {
    ExprPtr left = (this->*sub)();
    while (peek().is_name(word)) {
      const SourcePos p = next().pos;
      left = make(ExprKind::bool_op, p, word, std::move(left), (this->*sub)());
    }
    return left;
  }
  ExprPtr or_test() { return bool_chain("or", &Parser::and_test); }
  ExprPtr and_test() { return bool_chain("and", &Parser::not_test); }
  ExprPtr not_test() {
    if (peek().is_name("not")) {
      const SourcePos p = next().pos;
      enter(p);
      ExprPtr e = make(ExprKind::unary, p, "not", not_test());
      leave();
      return e;
    }
    return comparison();
  }
  ExprPtr comparison() {
    const SourcePos p = peek().pos;
    ExprPtr first = bit_or();
    std::vector<std::string> ops;
    std::vector<ExprPtr> rest;
    while (true) {
      const Token& t = peek();
      std::string op;
      if (t.kind == TokenKind::op && (t.text == "<" || t.text == ">" || t.text == "==" ||
                                      t.text == ">=" || t.text == "<=" || t.text == "!=")) {
        op = next().text;
      } else if (t.is_name("in")) {
        next();
        op = "in";
      } else if (t.is_name("not") && peek(1).is_name("in")) {
        next();
        next();
        op = "not in";
      } else if (t.is_name("is")) {
        next();
        op = accept_name("not") ? "is not" : "is";
      } else {
        break;
      }
      ops.push_back(op);
      rest.push_back(bit_or());
    }
    if (ops.empty()) return first;
    auto e = node(ExprKind::compare, p);
    e->ops = std::move(ops);
    e->kids.push_back(std::move(first));
    for (auto& r : rest) e->kids.push_back(std::move(r));
    return seal(std::move(e));
  }
  bool accept_name(std::string_view n) {
    if (!peek().is_name(n)) return false;
    next();
    return true;
  }
  ExprPtr binary_level(std::initializer_list<std::string_view> ops, ExprPtr (Parser::*sub)()) {
    ExprPtr left = (this->*sub)();
    while (true) {
      const Token& t = peek();
      const bool match =
          t.kind == TokenKind::op && std::find(ops.begin(), ops.end(), t.text) != ops.end();
      if (!match) return left;
      const Token& op = next();
      left = make(ExprKind::binary, op.pos, op.text, std::move(left), (this->*sub)());
    }
  }
  ExprPtr bit_or() { return binary_level({"|"}, &Parser::bit_xor); }
  ExprPtr bit_xor() { return binary_level({"^"}, &Parser::bit_and); }
  ExprPtr bit_and() { return binary_level({"&"}, &Parser::shift); }
  ExprPtr shift() { return binary_level({"<<", ">>"}, &Parser::arith); }
  ExprPtr arith() { return binary_level({"+", "-"}, &Parser::term); }
  ExprPtr term() { return binary_level({"*", "/", "//", "%", "@"}, &Parser::factor); }
  ExprPtr factor() {
    const Token& t = peek();
    if (t.is_op("-") || t.is_op("+") || t.is_op("~")) {
      const Token& op = next();
      enter(op.pos);
      ExprPtr e = make(ExprKind::unary, op.pos, op.text, factor());
      leave();
      return e;
    }
    return power();
  }
  ExprPtr power() {
    ExprPtr base = primary();
    if (peek().is_op("**")) {
      const Token& op = next();
      enter(op.pos);
      base = make(ExprKind::binary, op.pos, "**", std::move(base), factor());
      leave();
    }
    return base;
  }

  // Trailers (calls, subscripts, attributes) are placed at the start of the whole primary, so
  // a refusal of tl.load(...)[...] points at "tl", where a reader looks.
  ExprPtr primary() {
    ExprPtr e = atom();
    const SourcePos start = e->pos;
    while (true) {
      const Token& t = peek();
      if (t.is_op("(")) {
        e = call(std::move(e));
        e->pos = start;
      } else if (t.is_op("[")) {
        next();
        auto s = node(ExprKind::subscript, start);
        s->kids.push_back(std::move(e));
        s->kids.push_back(subscript_list());
        expect_op("]");
        e = seal(std::move(s));
      } else if (t.is_op(".")) {
        next();
        e = make(ExprKind::attribute, start, expect_name(), std::move(e));
      } else {
        return e;
      }
    }
  }

  ExprPtr call(ExprPtr callee) {
    const SourcePos p = next().pos;  // '('
    auto c = node(ExprKind::call, callee->pos);
    (void)p;
    c->kids.push_back(std::move(callee));
    while (!peek().is_op(")")) {
      if (peek().is_op("*") || peek().is_op("**"))
        fail(peek().pos, "*args and **kwargs in a call are not supported");
      if (at(TokenKind::name) && peek(1).is_op("=")) {
        const std::string name = next().text;
        next();
        for (const auto& kw : c->kwargs)
          if (kw.first == name) fail(peek().pos, "keyword argument " + name + " given twice");
        c->kwargs.emplace_back(name, test());
      } else {
        if (!c->kwargs.empty()) fail(peek().pos, "a positional argument after keyword arguments");
        c->kids.push_back(test());
      }
      if (peek().is_name("for")) fail(peek().pos, "generator expressions are not supported");
      if (!accept_op(",")) break;
    }
    expect_op(")");
    return seal(std::move(c));
  }

  ExprPtr subscript_list() {
    const SourcePos p = peek().pos;
    ExprPtr first = subscript_item();
    if (!peek().is_op(",")) return first;
    auto t = node(ExprKind::tuple, p);
    t->kids.push_back(std::move(first));
    while (accept_op(",")) {
      if (peek().is_op("]")) break;
      t->kids.push_back(subscript_item());
    }
    return seal(std::move(t));
  }
  ExprPtr subscript_item() {
    const SourcePos p = peek().pos;
    ExprPtr lower;
    if (!peek().is_op(":")) {
      lower = test();
      if (!peek().is_op(":")) return lower;
    }
    auto s = node(ExprKind::slice, p);
    next();  // ':'
    ExprPtr upper, step;
    if (!peek().is_op("]") && !peek().is_op(",") && !peek().is_op(":")) upper = test();
    if (accept_op(":") && !peek().is_op("]") && !peek().is_op(",")) step = test();
    s->kids.push_back(std::move(lower));
    s->kids.push_back(std::move(upper));
    s->kids.push_back(std::move(step));
    return seal(std::move(s));
  }

  ExprPtr atom() {
    const Token& t = peek();
    switch (t.kind) {
      case TokenKind::name: {
        next();
        if (t.text == "True" || t.text == "False") {
          auto e = node(ExprKind::boolean, t.pos);
          e->bval = t.text == "True";
          return e;
        }
        if (t.text == "None") return node(ExprKind::none, t.pos);
        if (t.text == "lambda" || t.text == "yield" || t.text == "await")
          fail(t.pos, "\"" + t.text + "\" is not supported yet");
        auto e = node(ExprKind::name, t.pos);
        e->text = t.text;
        return e;
      }
      case TokenKind::integer: {
        next();
        auto e = node(ExprKind::integer, t.pos);
        e->ival = t.ival;
        return e;
      }
      case TokenKind::real: {
        next();
        auto e = node(ExprKind::real, t.pos);
        e->fval = t.fval;
        return e;
      }
      case TokenKind::string: {
        auto e = node(ExprKind::string, t.pos);
        while (at(TokenKind::string)) e->text += next().text;  // "a" "b" concatenates
        return e;
      }
      case TokenKind::op:
        if (t.is_op("(") || t.is_op("[")) {
          const std::string close = t.is_op("(") ? ")" : "]";
          const bool list = t.is_op("[");
          const SourcePos p = next().pos;
          if (accept_op(close)) return seal(node(ExprKind::tuple, p));
          ExprPtr inner = test();
          if (peek().is_name("for")) fail(peek().pos, "comprehensions are not supported");
          if (!list && !peek().is_op(",")) {
            expect_op(close);
            return inner;
          }
          auto tup = node(ExprKind::tuple, p);
          tup->kids.push_back(std::move(inner));
          while (accept_op(",")) {
            if (peek().is_op(close)) break;
            tup->kids.push_back(test());
          }
          expect_op(close);
          return seal(std::move(tup));
        }
        if (t.is_op("...")) {
          next();
          return node(ExprKind::ellipsis, t.pos);
        }
        if (t.is_op("{")) fail(t.pos, "dict and set literals are not supported yet");
        break;
      default:
        break;
    }
    fail(t.pos, "expected an expression but found " + describe(t));
  }

  std::vector<Token> m_t;
  std::size_t m_i = 0;
  const std::string& m_file;
  int m_depth = 0;
};

std::vector<std::string> split_lines(std::string_view s) {
  std::vector<std::string> out;
  std::size_t b = 0;
  while (b <= s.size()) {
    const std::size_t e = s.find('\n', b);
    const std::size_t end = e == std::string_view::npos ? s.size() : e;
    std::string line(s.substr(b, end - b));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(std::move(line));
    if (e == std::string_view::npos) break;
    b = e + 1;
  }
  return out;
}

}  // namespace

std::vector<std::string> jit_functions(std::string_view source, const std::string& file) {
  std::vector<std::string> names;
  Parser parser(tokenize(source, file), file);
  (void)parser.module(&names, {});
  return names;
}

KernelSource parse_kernel(std::string_view source, const std::string& file,
                          std::string_view function) {
  KernelSource k;
  k.file = file;
  Parser parser(tokenize(source, file), file);
  std::vector<Function> found = parser.module(&k.kernels, function);
  std::string listed;
  for (const auto& n : k.kernels) listed += (listed.empty() ? "" : ", ") + n;
  if (found.empty()) {
    if (k.kernels.empty()) throw SourceError(file, {}, "no @triton.jit function in this file");
    throw SourceError(
        file, {}, "no @triton.jit function named " + std::string(function) + ": found " + listed);
  }
  if (found.size() > 1)
    throw SourceError(
        file, found[1].pos,
        "several @triton.jit functions (" + listed + "): choose one with --function NAME");
  k.fn = std::move(found.front());
  k.lines = split_lines(source);
  check_subset(k);
  return k;
}

}  // namespace tilesim::triton
