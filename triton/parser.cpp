// The statements of a @triton.jit function, and the file around it (decorators and defs are read,
// everything else skipped a statement at a time); the expressions are parser_expr.cpp's. Depth is
// bounded: blocks by the lexer, expressions there.
#include "triton/parser.hpp"

#include <algorithm>
#include <set>

#include "triton/lexer.hpp"
#include "triton/parser_impl.hpp"

namespace tilesim::triton {
namespace {

// Statements Python has and the subset does not: refused by name at their keyword.
const std::set<std::string_view> kRefusedKeywords{
    "while",  "break",    "continue", "def",    "class",
    "with",   "try",      "raise",    "import", "from",
    "global", "nonlocal", "del",      "lambda", "yield",
    "async",  "await",    "assert",   "match",  "print_function_placeholder"};

}  // namespace

namespace detail {

std::vector<Function> Parser::module(std::vector<std::string>* names, std::string_view wanted) {
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

const Token& Parser::peek(std::size_t ahead) const {
  return m_t[std::min(m_i + ahead, m_t.size() - 1)];
}

const Token& Parser::next() {
  const Token& t = peek();
  if (m_i < m_t.size() - 1) ++m_i;
  return t;
}

void Parser::fail(SourcePos p, const std::string& msg) const {
  throw SourceError(m_file, p, msg);
}

std::string Parser::describe(const Token& t) {
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

const Token& Parser::expect_op(std::string_view op) {
  if (!peek().is_op(op))
    fail(peek().pos, "expected \"" + std::string(op) + "\" but found " + describe(peek()));
  return next();
}

std::string Parser::expect_name() {
  if (!at(TokenKind::name)) fail(peek().pos, "expected a name but found " + describe(peek()));
  return next().text;
}

bool Parser::accept_op(std::string_view op) {
  if (!peek().is_op(op)) return false;
  next();
  return true;
}

bool Parser::decorator() {
  next();  // '@'
  const bool jit = peek().is_name("triton") && peek(1).is_op(".") && peek(2).is_name("jit");
  while (!at(TokenKind::newline) && !at(TokenKind::end)) next();
  if (at(TokenKind::newline)) next();
  return jit;
}

void Parser::skip_statement() {
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

Function Parser::function() {
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

std::vector<StmtPtr> Parser::block() {
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

void Parser::statement(std::vector<StmtPtr>* out) {
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

void Parser::simple_line(std::vector<StmtPtr>* out) {
  do {
    if (at(TokenKind::newline)) break;
    out->push_back(simple());
  } while (accept_op(";"));
  if (!at(TokenKind::newline) && !at(TokenKind::end))
    fail(peek().pos, "expected the end of the statement but found " + describe(peek()));
  if (at(TokenKind::newline)) next();
}

StmtPtr Parser::simple() {
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

void Parser::check_target(const Expr& e, bool aug) {
  if (e.kind == ExprKind::name) return;
  if (e.kind == ExprKind::tuple && !aug) {
    for (const auto& k : e.kids) check_target(*k, false);
    return;
  }
  if (e.kind == ExprKind::subscript || e.kind == ExprKind::attribute)
    fail(e.pos, "assigning to a subscript or attribute is not supported yet");
  fail(e.pos, "cannot assign to this expression");
}

StmtPtr Parser::for_loop() {
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

StmtPtr Parser::if_stmt() {
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

}  // namespace detail

namespace {

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
  detail::Parser parser(tokenize(source, file), file);
  (void)parser.module(&names, {});
  return names;
}

KernelSource parse_kernel(std::string_view source, const std::string& file,
                          std::string_view function) {
  KernelSource k;
  k.file = file;
  detail::Parser parser(tokenize(source, file), file);
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
