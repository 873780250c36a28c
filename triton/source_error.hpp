// The one refusal of the Triton front end: a construct outside the subset, a bad token, a value
// out of bounds — always with the file, line and column it comes from, never a crash.
// It is a sim::InvalidField (field "triton"), so every tool reports it as bad input (exit 2).
#pragma once

#include <string>

#include "sim/base/limits.hpp"

namespace tilesim::triton {

struct SourcePos {
  int line = 0, col = 0;  // 1-based; 0 where no position applies (a launch argument)
};

class SourceError : public sim::InvalidField {
 public:
  // what(): "kernel.py:14:9: tl.atomic_add is not supported yet"
  SourceError(const std::string& file, SourcePos pos, const std::string& message);
  const std::string& file() const { return m_file; }
  SourcePos pos() const { return m_pos; }
  const std::string& reason() const { return m_reason; }

 private:
  std::string m_file;
  SourcePos m_pos;
  std::string m_reason;
};

// Bounds shared by the lexer, parser and evaluator (what a fuzzer may not exceed).
inline constexpr std::size_t kMaxSourceBytes = 1 << 20;  // one kernel file
inline constexpr std::size_t kMaxTokens = 200000;
inline constexpr int kMaxNesting = 64;                             // expression / block depth
inline constexpr std::int64_t kMaxTileLanes = 1 << 20;             // elements of one tile
inline constexpr std::int64_t kMaxLoopIterations = 1 << 20;        // one program, all loops
inline constexpr std::int64_t kMaxStatementsPerProgram = 1 << 24;  // statements one pid runs

}  // namespace tilesim::triton
