// View model of the warps panel: for the open kernel, each CUDA variant's global sectors per
// request (coalescing) and shared-memory bank conflicts from sim::warp_access, the matching
// Nsight Compute measurement if one exists, and the lane -> bank picture of one warp reading a
// column of a 32 x 32 (conflicts) or 32 x 33 (none) float tile.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "scenario/measured.hpp"
#include "sim/warps/nsight_metrics.hpp"
#include "sim/warps/warp_access.hpp"

namespace tilesim::app {

struct WarpMeasured {
  std::string device, date;
  sim::MeasuredWarps figures;  // what the Nsight Compute metrics say, in the model's units
};

struct WarpRow {
  sim::ThreadVariant variant = sim::ThreadVariant::copy_tiled;
  std::string name;                  // "transpose_smem_padded"
  int threads = 0;                   // threads per program
  sim::WarpAccessCounters counters;  // whole kernel
  std::optional<WarpMeasured> measured;
};

// Every variant that implements `p`'s kernel, modelled on the whole problem.
std::vector<WarpRow> warp_rows(const sim::Problem& p);
// Attach measurements of `p` on `machine_key` whose variant matches the row's.
void attach_measurements(std::vector<WarpRow>& rows, const std::vector<scenario::MeasuredSet>& sets,
                         const sim::ProblemSpec& p, const std::string& machine_key);

// One warp (lanes 0..31) reads column `column` of a float tile whose rows are `row_words` words.
struct BankPicture {
  int row_words = 32;
  std::array<int, sim::kWarpSize> bank_of_lane{};  // (lane,) bank 0..31
  std::int64_t wavefronts = 0;                     // sim::wavefronts_of_request of the lanes
  std::int64_t conflicts = 0;                      // sim::conflicts_of_request
};
BankPicture column_read_banks(int row_words, int column = 0);

}  // namespace tilesim::app
