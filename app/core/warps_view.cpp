// Warps view model (see warps_view.hpp): the figures come from sim/warp_access.
#include "app/core/warps_view.hpp"

#include <cstdint>

namespace tilesim::app {

std::vector<WarpRow> warp_rows(const sim::Problem& p) {
  using V = sim::ThreadVariant;
  std::vector<WarpRow> out;
  for (V v : {V::copy_tiled, V::transpose_naive, V::transpose_smem_tiled, V::transpose_smem_padded,
              V::matmul_smem_tiled}) {
    if (!sim::variant_fits(v, p.kernel())) continue;
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
      // kernels/ names B^T's smem variant matmul_smem_tiled_b_transposed; one model covers both.
      if (r.variant.rfind(row.name, 0) != 0) continue;
      auto per = [&](const char* sectors, const char* requests) {
        const double q = r.metric(requests, 0);
        return q > 0 ? r.metric(sectors, 0) / q : 0.0;
      };
      WarpMeasured w;
      w.device = m.set->device.substr(0, m.set->device.find(','));
      w.date = m.set->date;
      w.ld_sectors_per_request = per("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                     "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
      w.st_sectors_per_request = per("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                                     "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum");
      // Per instruction: SASS wavefronts minus shared instructions. The l1tex__data_bank_conflicts
      // counters also count arbitration with concurrent global traffic (docs/MODEL.md), so they
      // are the fallback for measurements taken before the SASS metrics were collected.
      const auto conflicts = [&](const char* op) {
        const std::string wf =
            std::string("sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_") + op + ".sum";
        const std::string inst = std::string("sm__sass_inst_executed_op_shared_") + op + ".sum";
        const double w = r.metric(wf, -1), i = r.metric(inst, -1);
        if (w >= 0 && i >= 0) return w - i;
        return r.metric(
            std::string("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_") + op + ".sum", 0);
      };
      w.shared_ld_conflicts = conflicts("ld");
      w.shared_st_conflicts = conflicts("st");
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
    b.bank_of_lane[lane] = int(word % sim::kSharedBanks);
  }
  b.wavefronts = sim::wavefronts_of_request(addr);
  return b;
}

}  // namespace tilesim::app
