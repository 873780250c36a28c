// Warps view model (see warps_view.hpp): the figures come from sim/warps/warp_access, the measured
// ones' meaning from sim/warps/nsight_metrics.
#include "app/core/warps_view.hpp"

#include <cstdint>

namespace tilesim::app {

std::vector<WarpRow> warp_rows(const sim::Problem& p) {
  std::vector<WarpRow> out;
  for (const sim::ThreadVariant v : sim::thread_variants(p.kernel())) {
    WarpRow r;
    r.variant = v;
    r.name = std::string(sim::to_string(v));
    r.threads = sim::threads_per_program(p, v);
    r.counters = sim::warp_access(p, v);
    out.push_back(std::move(r));
  }
  return out;
}

void attach_measurements(std::vector<WarpRow>& rows, const std::vector<scenario::MeasuredSet>& sets,
                         const sim::ProblemSpec& p, const std::string& machine_key) {
  for (const auto& m : scenario::find_measured(sets, p, machine_key)) {
    const auto& r = *m.record;
    for (auto& row : rows) {
      // The model of the measured kernels/ variant (one covers matmul_smem_tiled with and
      // without B^T).
      if (sim::parse_thread_variant(r.variant) != row.variant) continue;
      WarpMeasured w;
      w.device = m.set->device.substr(0, m.set->device.find(','));
      w.date = m.set->date;
      w.figures = sim::measured_warps(r.measured);
      row.measured = w;
    }
  }
}

BankPicture column_read_banks(int row_words, int column) {
  BankPicture b;
  b.row_words = row_words;
  std::array<std::uint64_t, sim::kWarpSize> addr{};
  for (int lane = 0; lane < sim::kWarpSize; ++lane) {
    const std::uint64_t word =
        std::uint64_t(lane) * std::uint64_t(row_words) + std::uint64_t(column);
    addr[lane] = word * 4;
    b.bank_of_lane[lane] = sim::bank_of(addr[lane]);
  }
  b.wavefronts = sim::wavefronts_of_request(addr);
  b.conflicts = sim::conflicts_of_request(b.wavefronts);
  return b;
}

}  // namespace tilesim::app
