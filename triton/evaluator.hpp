// The evaluator: runs the kernel's function for one program id on tiles, and returns what it
// did (records.hpp). Deterministic, bounded (tile lanes, loop iterations, statements) and
// refusing what it cannot do with the position of the construct.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "triton/launch.hpp"
#include "triton/parser.hpp"
#include "triton/records.hpp"

namespace tilesim::triton {

struct EvalOptions {
  bool scalars = false;  // also record every scalar integer assignment (map --pid explains)
  // Called with each tl.load / tl.store record as it is made, and its index in the run's
  // records. Without keep_access_tiles the record then drops its lanes (shapes stay): a
  // program's memory stays one access's where the caller reads each access as it comes (at
  // 8192^3, block 128 x 128 x 64, one program makes 256 loads of 8192 lanes: 32 MiB kept).
  std::function<void(std::size_t, const Record&)> on_access;
  bool keep_access_tiles = true;
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
