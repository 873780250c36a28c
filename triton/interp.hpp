// The evaluator's inside (not installed for other layers): one program's frame — its names, its
// records, its budgets — shared by the statement walker (evaluator.cpp) and the `tl` functions
// (tl_builtins.cpp).
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "triton/evaluator.hpp"
#include "triton/tile_ops.hpp"
#include "triton/value.hpp"

namespace tilesim::triton {

// The positional and keyword arguments of one call, evaluated.
struct CallArgs {
  std::vector<Value> pos;
  std::vector<std::pair<std::string, Value>> kw;
};

class Interp {
 public:
  Interp(const KernelSource& k, const Launch& l, std::int64_t pid, const EvalOptions& opt);
  ProgramRun run();

  // For tl_builtins.cpp.
  [[noreturn]] void fail(SourcePos p, const std::string& msg) const;
  const Launch& launch() const { return m_l; }
  ProgramRun& out() { return m_out; }
  // Stamps a record with the loop it is made in; push_record stamps and appends it.
  void stamp(Record& r) const;
  void push_record(Record r);
  Value call_builtin(const std::string& name, CallArgs args, const Expr& call);
  Value call_method(const std::string& name, const Value& self, CallArgs args, const Expr& call);
  Value transpose(const Value& v, SourcePos p);

 private:
  void exec_block(const std::vector<StmtPtr>& body);
  void exec(const Stmt& s);
  void assign(const Expr& target, const Value& v, SourcePos p);
  Value eval(const Expr& e);
  Value eval_attribute(const Expr& e);
  Value eval_subscript(const Expr& e);
  Value eval_call(const Expr& e);
  Value lookup(const Expr& e) const;

  const KernelSource& m_k;
  const Launch& m_l;
  EvalOptions m_opt;
  std::unordered_map<std::string, Value> m_env;
  ProgramRun m_out;
  std::int64_t m_statements = 0;
  bool m_returned = false;
  int m_loop_depth = 0;
  SourcePos m_loop_pos;                // the innermost running loop's `for`
  std::int64_t m_loop_iteration = -1;  // and its iteration
};

}  // namespace tilesim::triton
