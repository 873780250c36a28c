// The evaluator: runs the kernel's function for one program id on tiles, and returns what it
// did (records.hpp). Deterministic, bounded (tile lanes, loop iterations, statements) and
// refusing what it cannot do with the position of the construct.
#pragma once

#include <cstdint>

#include "triton/launch.hpp"
#include "triton/parser.hpp"
#include "triton/records.hpp"

namespace tilesim::triton {

struct EvalOptions {
  bool scalars = false;  // also record every scalar integer assignment (map --pid explains)
};

class Evaluator {
 public:
  // Checks the launch against the function (check_launch) once.
  Evaluator(const KernelSource& k, Launch launch);
  const KernelSource& kernel() const { return m_k; }
  const Launch& launch() const { return m_launch; }
  ProgramRun run(std::int64_t pid, const EvalOptions& opt = {}) const;

 private:
  const KernelSource& m_k;
  Launch m_launch;
};

}  // namespace tilesim::triton
