// What the sim tests share: square matmul problems with one block size, and a machine small
// enough to count by hand (8 SMs, one 256 KiB L2 partition).
#pragma once

#include <cstdint>

#include "scenario/machine_json.hpp"
#include "sim/machine/machine.hpp"
#include "sim/program/problem.hpp"

namespace tilesim::sim_test {

// (n, n) @ (n, n) with BLOCK_M = BLOCK_N = BLOCK_K = block.
inline sim::ProblemSpec square_matmul(std::int64_t n, int block, sim::LaunchOrder order,
                                      std::int64_t group_size_m = 1) {
  sim::ProblemSpec s;
  s.m = s.n = s.k = n;
  s.block_m = s.block_n = s.block_k = block;
  s.order = order;
  s.group_size_m = group_size_m;
  return s;
}

inline sim::Machine small_machine() {
  return scenario::parse_machine_json(
      R"({"base": "h100", "sms": 8, "l2_bytes": 262144, "l2_partitions": 1})");
}

}  // namespace tilesim::sim_test
