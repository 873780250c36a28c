// The student's check (issue 26, part 5): every lane a load or store leaves on whose address
// falls outside its tensor, reported with the pid, the line and the lane count — whatever the
// kernel computes, sim's kernels or not.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "triton/evaluator.hpp"

namespace tilesim::triton {

struct OutOfBounds {
  std::int64_t pid = 0;
  SourcePos pos;
  bool store = false;
  bool masked = false;  // the access has a mask, and it leaves these lanes on
  std::string tensor;
  std::int64_t lanes = 0;  // lanes on (no mask, or the mask true) outside [0, the tensor's end)
  // "pid 3, line 9: 1792 lanes of dst written outside it (no mask)"
  std::string text() const;
};

// A hint, not an error: a load or store whose mask left every lane on in every program checked.
// At this launch the sizes are multiples of the blocks, so the mask only costs its compares; it
// is still what keeps other sizes inside their tensors.
struct AlwaysTrueMask {
  SourcePos pos;
  bool store = false;
  std::string tensor;
  // "line 25: the mask of this load of a_ptr is true for every lane of all 81 programs: ..."
  std::string text(std::int64_t programs) const;
};

struct KernelCheck {
  std::vector<OutOfBounds> out_of_bounds;   // in pid order
  std::vector<AlwaysTrueMask> always_true;  // in source order
};

// Every access of the programs `pids` (all of them when empty) checked.
KernelCheck check_kernel(const Evaluator& ev, std::vector<std::int64_t> pids = {});
// The out-of-bounds accesses alone.
std::vector<OutOfBounds> out_of_bounds(const Evaluator& ev, std::vector<std::int64_t> pids = {});

}  // namespace tilesim::triton
