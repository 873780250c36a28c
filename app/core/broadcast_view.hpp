// View model of the broadcast inspector: offs_m[:, None] down the side, offs_k[None, :] across
// the top, their broadcast sum (the offsets, in elements) and the mask as T/F — seed 000's
// pictures with the real numbers of the selected program and step. Big blocks keep a readable
// corner: the first rows/columns, an ellipsis, and the last ones.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/core/kernel_file.hpp"
#include "app/core/playback.hpp"
#include "sim/program/program_trace.hpp"

namespace tilesim::app {

// Which lanes to show along one axis: indices into the tile, -1 where an ellipsis goes.
std::vector<int> shown_lanes(int count, int max_shown, int tail = 2);

struct BroadcastView {
  bool available = false;  // false when the problem has no memory step to inspect
  std::string step_label;  // "pid 29, k = 2: a = tl.load(a_ptrs, mask=a_mask)"
  sim::StepOp op = sim::StepOp::load_a;
  sim::TileAccess access;
  std::vector<int> rows, cols;  // shown_lanes of each axis
  std::string row_header;       // "offs_m[:, None] * stride_am"
  std::string col_header;       // "offs_k[None, :] * stride_ak"
  std::string sum_header;       // "a_ptrs - a_ptr"
  std::string mask_header;      // "a_mask"
  std::int64_t lanes_on = 0, lanes = 0;
  // With a Triton file open: the cells are the evaluator's own offsets and mask of the access
  // (row-major, rows() x cols() in the access's orientation), the titles the file's text.
  bool from_file = false;
  bool file_deferred = false;  // playing, the file is slow to evaluate: sim's cells meanwhile
  std::string file_line;       // "seed004_grouped_matmul.py:42"
  std::vector<std::int64_t> file_offsets;
  std::vector<std::uint8_t> file_mask;

  std::int64_t offset(int i, int j) const {
    return from_file ? file_offsets[static_cast<std::size_t>(i) * access.cols() + j]
                     : access.offset(i, j);
  }
  bool valid(int i, int j) const {
    return from_file ? file_mask[static_cast<std::size_t>(i) * access.cols() + j] != 0
                     : access.valid(i, j);
  }
};

// The memory step shown for (pid, step): the step itself if it loads or stores; the program's
// first load at `map`; the load_b of the same k at `dot`; the load at `transpose`.
std::int64_t inspected_step(const sim::Problem& p, std::int64_t step);
// `kernel`: the open Triton file, whose records give the cells and whose text the titles (the
// pointer and mask arguments of the load as written, the index vectors' names where the
// pointer's line builds it as NAME[:, None] * STRIDE + NAME[None, :] * STRIDE). `playing`: a
// program slow to evaluate waits until play stops (KernelFileState::steps_while).
BroadcastView make_broadcast_view(const sim::Problem& p, CursorPos at, int max_rows = 8,
                                  int max_cols = 8, const KernelFileState* kernel = nullptr,
                                  bool playing = false);

// "12", "-" for an ellipsis cell, "T"/"F" for masks: the text of one cell.
std::string cell_text(const BroadcastView& v, int row_lane, int col_lane, bool mask);

}  // namespace tilesim::app
