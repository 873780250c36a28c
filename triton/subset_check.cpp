// The parse-time check of the `tl` names a kernel uses: anything outside the subset is refused
// where it is written ("kernel.py:14:9: tl.atomic_add is not supported yet"), before a launch
// is needed.
#include <set>
#include <string>

#include "triton/parser.hpp"

namespace tilesim::triton {
namespace {

// The `tl` names the subset evaluates (tl_builtins.cpp); dtypes and constexpr are attributes.
// clang-format off
const std::set<std::string, std::less<>> kSupportedTl{
    "program_id", "num_programs", "cdiv", "arange", "zeros", "zeros_like", "full", "load",
    "store", "dot", "trans", "where", "minimum", "maximum", "sum", "max", "min", "multiple_of",
    "max_contiguous", "cast", "make_block_ptr", "advance", "range", "static_range", "exp",
    "exp2", "log", "log2", "sqrt", "rsqrt", "abs", "sigmoid", "sin", "cos", "erf", "fma",
    "constexpr", "float16", "bfloat16", "float32", "float64", "int1", "int8", "int16", "int32",
    "int64", "math", "language", "assume"};
// clang-format on

// The name chain of `e` ("tl.math.exp") or "" when it is not made of names and attributes.
std::string chain(const Expr& e) {
  if (e.kind == ExprKind::name) return e.text;
  if (e.kind == ExprKind::attribute && e.kids[0]) {
    const std::string base = chain(*e.kids[0]);
    return base.empty() ? "" : base + "." + e.text;
  }
  return "";
}
SourcePos chain_start(const Expr& e) {
  return e.kind == ExprKind::attribute && e.kids[0] ? chain_start(*e.kids[0]) : e.pos;
}

void check_expr(const KernelSource& k, const Expr* e) {
  if (!e) return;
  if (e->kind == ExprKind::attribute) {
    std::string c = chain(*e);
    for (const char* prefix : {"triton.language.", "tl.math.", "tl."})
      if (c.rfind(prefix, 0) == 0) {
        const std::string rest = c.substr(std::string(prefix).size());
        const std::string head = rest.substr(0, rest.find('.'));
        if (!kSupportedTl.count(head))
          throw SourceError(
              k.file, chain_start(*e),
              std::string(prefix == std::string("triton.language.") ? "tl." : prefix) + head +
                  " is not supported yet");
        break;
      }
  }
  for (const auto& kid : e->kids) check_expr(k, kid.get());
  for (const auto& kw : e->kwargs) check_expr(k, kw.second.get());
}

void check_block(const KernelSource& k, const std::vector<StmtPtr>& body) {
  for (const auto& s : body) {
    for (const auto& t : s->targets) check_expr(k, t.get());
    check_expr(k, s->value.get());
    check_expr(k, s->test.get());
    check_block(k, s->body);
    check_block(k, s->orelse);
  }
}

}  // namespace

void check_subset(const KernelSource& k) {
  for (const auto& p : k.fn.params) check_expr(k, p.default_value.get());
  check_block(k, k.fn.body);
}

}  // namespace tilesim::triton
