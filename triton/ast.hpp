// The syntax tree of one @triton.jit function: expressions and statements of the Python subset
// Triton kernels use, each with the position it came from (so every refusal can name it).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "triton/source_error.hpp"

namespace tilesim::triton {

enum class ExprKind {
  name,
  integer,
  real,
  string,
  boolean,
  none,
  tuple,      // (a, b) and [a, b]: kids are the elements
  unary,      // text: "-" "+" "~" "not"; kids[0]
  binary,     // text: "+" "-" "*" "/" "//" "%" "**" "&" "|" "^" "<<" ">>" "@"; kids[0], kids[1]
  compare,    // ops[i] between kids[i] and kids[i + 1] (chained as in Python)
  bool_op,    // text: "and" | "or"; kids
  if_exp,     // kids: body, test, orelse
  call,       // kids[0]: the callee; kids[1..]: positional arguments; kwargs
  attribute,  // kids[0].text
  subscript,  // kids[0][kids[1]]; a tuple index holds several
  slice,      // kids: lower, upper, step (each may be null)
  ellipsis,
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  ExprKind kind = ExprKind::none;
  SourcePos pos;
  int depth = 1;  // height of the subtree: the evaluator's recursion is bounded by the parser
  std::string text;
  std::int64_t ival = 0;
  double fval = 0;
  bool bval = false;
  std::vector<ExprPtr> kids;
  std::vector<std::string> ops;
  std::vector<std::pair<std::string, ExprPtr>> kwargs;
};

enum class StmtKind { assign, aug_assign, expr, for_loop, if_stmt, ret, pass };

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;

struct Stmt {
  StmtKind kind = StmtKind::pass;
  SourcePos pos;
  std::vector<ExprPtr> targets;  // assign: one per "=" (a = b = v); for: the loop variable(s)
  std::string op;                // aug_assign: "+" for "+="
  ExprPtr value;                 // assign, aug_assign, expr, return (may be null), for: iterable
  ExprPtr test;                  // if
  std::vector<StmtPtr> body, orelse;  // orelse: else / elif (an if statement)
};

struct Param {
  std::string name;
  SourcePos pos;
  bool constexpr_ = false;  // annotated `tl.constexpr`
  ExprPtr default_value;
};

struct Function {
  std::string name;
  SourcePos pos;
  std::vector<Param> params;
  std::vector<StmtPtr> body;
};

}  // namespace tilesim::triton
