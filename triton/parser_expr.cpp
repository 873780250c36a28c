// Expressions: recursive descent over Python's grammar, one function per precedence level (lowest
// first: conditional, or, and, not, comparison, |, ^, &, shifts, + -, * / // % @, unary, **,
// primary). Depth is bounded twice: the parser's own recursion (brackets, unary chains) and the
// height of every tree it builds (a + a + ... is iterative to parse but recursive to evaluate).
#include <algorithm>
#include <string>
#include <utility>

#include "triton/parser_impl.hpp"

namespace tilesim::triton::detail {
namespace {

constexpr int kMaxExprHeight = 256;

}  // namespace

void Parser::enter(SourcePos p) {
  if (++m_depth > kMaxNesting)
    fail(p, "nested too deeply (more than " + std::to_string(kMaxNesting) + " levels)");
}

ExprPtr Parser::node(ExprKind k, SourcePos p) {
  auto e = std::make_unique<Expr>();
  e->kind = k;
  e->pos = p;
  return e;
}

ExprPtr Parser::seal(ExprPtr e) {
  int h = 0;
  for (const auto& k : e->kids)
    if (k) h = std::max(h, k->depth);
  for (const auto& kw : e->kwargs) h = std::max(h, kw.second->depth);
  e->depth = h + 1;
  if (e->depth > kMaxExprHeight) fail(e->pos, "expression nested too deeply");
  return e;
}

ExprPtr Parser::make(ExprKind k, SourcePos p, std::string text, ExprPtr a, ExprPtr b) {
  auto e = node(k, p);
  e->text = std::move(text);
  e->kids.push_back(std::move(a));
  if (b) e->kids.push_back(std::move(b));
  return seal(std::move(e));
}

ExprPtr Parser::test_list() {
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

ExprPtr Parser::target_list() {
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

bool Parser::ends_list() const {
  const Token& t = peek();
  return t.kind == TokenKind::newline || t.kind == TokenKind::end || t.is_op(")") || t.is_op("]") ||
         t.is_op("=") || t.is_op(";") || t.is_op(":");
}

ExprPtr Parser::test() {
  enter(peek().pos);
  if (peek().is_name("lambda")) fail(peek().pos, "lambda is not supported yet");
  ExprPtr body = or_test();
  if (peek().is_name("if")) {
    const SourcePos p = next().pos;
    ExprPtr cond = or_test();
    if (!peek().is_name("else")) fail(peek().pos, "expected \"else\" in a conditional expression");
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

ExprPtr Parser::bool_chain(const char* word, ExprPtr (Parser::*sub)()) {
  ExprPtr left = (this->*sub)();
  while (peek().is_name(word)) {
    const SourcePos p = next().pos;
    left = make(ExprKind::bool_op, p, word, std::move(left), (this->*sub)());
  }
  return left;
}

ExprPtr Parser::not_test() {
  if (peek().is_name("not")) {
    const SourcePos p = next().pos;
    enter(p);
    ExprPtr e = make(ExprKind::unary, p, "not", not_test());
    leave();
    return e;
  }
  return comparison();
}

ExprPtr Parser::comparison() {
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

bool Parser::accept_name(std::string_view n) {
  if (!peek().is_name(n)) return false;
  next();
  return true;
}

ExprPtr Parser::binary_level(std::initializer_list<std::string_view> ops,
                             ExprPtr (Parser::*sub)()) {
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

ExprPtr Parser::factor() {
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

ExprPtr Parser::power() {
  ExprPtr base = primary();
  if (peek().is_op("**")) {
    const Token& op = next();
    enter(op.pos);
    base = make(ExprKind::binary, op.pos, "**", std::move(base), factor());
    leave();
  }
  return base;
}

ExprPtr Parser::primary() {
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

ExprPtr Parser::call(ExprPtr callee) {
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

ExprPtr Parser::subscript_list() {
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

ExprPtr Parser::subscript_item() {
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

ExprPtr Parser::atom() {
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

}  // namespace tilesim::triton::detail
