// Kernel listings: the Triton-style source a student reads beside the simulation.
// The text lives in assets/kernels/ and is compiled in, so line numbers in traces never depend
// on where the program runs from. A listing is composed of a kernel body and a launch-order block.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/program/problem.hpp"

namespace tilesim::sim {

struct Listing {
  std::string name;                // "matmul_mask.py + launch_orders/grouped.py"
  std::vector<std::string> lines;  // line i+1 of the listing is lines[i]
  // 1-based number of the first line at or after `from` whose text (leading spaces removed)
  // starts with `prefix`; 0 if none.
  int find(std::string_view prefix, int from = 1) const;
  std::string text() const;
};

const Listing& kernel_listing(Kernel kernel, Boundary boundary, LaunchOrder order);
inline const Listing& kernel_listing(const Problem& p) {
  return kernel_listing(p.kernel(), p.boundary(), p.order());
}

// Raw text of an embedded asset, e.g. "matmul_mask.py" or "launch_orders/grouped.py"; empty if
// unknown. Generated at build time from assets/kernels/.
std::string_view embedded_kernel_asset(std::string_view name);

}  // namespace tilesim::sim
