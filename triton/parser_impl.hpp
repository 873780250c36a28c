// The parser's class, shared by its two halves: parser.cpp (tokens, the file's top level and
// the statements) and parser_expr.cpp (the expressions). Internal to triton/: parser.hpp is the
// interface.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "triton/ast.hpp"
#include "triton/lexer.hpp"
#include "triton/source_error.hpp"

namespace tilesim::triton::detail {

class Parser {
 public:
  Parser(std::vector<Token> toks, const std::string& file) : m_t(std::move(toks)), m_file(file) {}

  // Top level: decorators and defs are read; anything else is skipped a statement at a time.
  std::vector<Function> module(std::vector<std::string>* names, std::string_view wanted);

 private:
  // ---- tokens
  const Token& peek(std::size_t ahead = 0) const;
  bool at(TokenKind k) const { return peek().kind == k; }
  const Token& next();
  [[noreturn]] void fail(SourcePos p, const std::string& msg) const;
  static std::string describe(const Token& t);
  const Token& expect_op(std::string_view op);
  std::string expect_name();
  bool accept_op(std::string_view op);

  // ---- top level
  bool decorator();
  void skip_statement();
  Function function();

  // ---- statements
  std::vector<StmtPtr> block();
  void statement(std::vector<StmtPtr>* out);

  // Simple statements separated by ';' up to the end of the line.
  void simple_line(std::vector<StmtPtr>* out);
  StmtPtr simple();
  void check_target(const Expr& e, bool aug);
  StmtPtr for_loop();
  StmtPtr if_stmt();

  // ---- expressions
  void enter(SourcePos p);
  void leave() { --m_depth; }
  ExprPtr node(ExprKind k, SourcePos p);
  ExprPtr seal(ExprPtr e);
  ExprPtr make(ExprKind k, SourcePos p, std::string text, ExprPtr a, ExprPtr b = nullptr);

  // test (',' test)* [','] -> a tuple when there is a comma
  ExprPtr test_list();
  ExprPtr target_list();
  bool ends_list() const;
  ExprPtr test();
  ExprPtr bool_chain(const char* word, ExprPtr (Parser::*sub)());
  ExprPtr or_test() { return bool_chain("or", &Parser::and_test); }
  ExprPtr and_test() { return bool_chain("and", &Parser::not_test); }
  ExprPtr not_test();
  ExprPtr comparison();
  bool accept_name(std::string_view n);
  ExprPtr binary_level(std::initializer_list<std::string_view> ops, ExprPtr (Parser::*sub)());
  ExprPtr bit_or() { return binary_level({"|"}, &Parser::bit_xor); }
  ExprPtr bit_xor() { return binary_level({"^"}, &Parser::bit_and); }
  ExprPtr bit_and() { return binary_level({"&"}, &Parser::shift); }
  ExprPtr shift() { return binary_level({"<<", ">>"}, &Parser::arith); }
  ExprPtr arith() { return binary_level({"+", "-"}, &Parser::term); }
  ExprPtr term() { return binary_level({"*", "/", "//", "%", "@"}, &Parser::factor); }
  ExprPtr factor();
  ExprPtr power();

  // Trailers (calls, subscripts, attributes) are placed at the start of the whole primary, so
  // a refusal of tl.load(...)[...] points at "tl", where a reader looks.
  ExprPtr primary();
  ExprPtr call(ExprPtr callee);
  ExprPtr subscript_list();
  ExprPtr subscript_item();
  ExprPtr atom();

  std::vector<Token> m_t;
  std::size_t m_i = 0;
  const std::string& m_file;
  int m_depth = 0;
};

}  // namespace tilesim::triton::detail
