// One definition of the same problem (see problem_identity.hpp).
#include "scenario/problem_identity.hpp"

#include "scenario/problem_json.hpp"

namespace tilesim::scenario {

bool same_configuration(const sim::ProblemSpec& a, const sim::ProblemSpec& b, Blocks blocks) {
  const bool mm = a.kernel == sim::Kernel::matmul;
  const bool grouped =
      a.order == sim::LaunchOrder::grouped || a.order == sim::LaunchOrder::grouped_legacy;
  const bool same_blocks =
      blocks == Blocks::ignored ||
      (a.block_m == b.block_m && a.block_n == b.block_n && (!mm || a.block_k == b.block_k));
  return a.kernel == b.kernel && a.m == b.m && a.n == b.n && (!mm || a.k == b.k) &&
         a.dtype == b.dtype && same_blocks && a.order == b.order &&
         (!grouped || a.group_size_m == b.group_size_m) && (!mm || a.b_layout == b.b_layout);
}

std::string problem_key(const sim::ProblemSpec& p) {
  return problem_to_json(p).dump();
}

}  // namespace tilesim::scenario
