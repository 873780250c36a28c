// The timed engine's result (see timed_result.hpp): summarize_sms, and TimedRun::finish, which
// hands over the engine's counters, the programs' spans and the summary.
#include "sim/timing/timed_result.hpp"

#include <algorithm>

#include "sim/timing/timed_run.hpp"

namespace tilesim::sim {

void summarize_sms(std::span<const SmTotals> sms, TimingSummary* out) {
  const double kernel = static_cast<double>(std::max<std::int64_t>(1, out->kernel_ps));
  const auto n = static_cast<double>(sms.size());
  std::array<double, kTimeCauses> sum{};
  for (const SmTotals& sm : sms) {
    out->fill_busy += static_cast<double>(sm.fill_ps) / kernel / n;
    out->dot_busy += static_cast<double>(sm.dot_ps) / kernel / n;
    const double tail = kernel - static_cast<double>(std::min(sm.last_retire, out->kernel_ps));
    double busy = 0;
    for (int c = 0; c < kTimeCauses; ++c) busy += static_cast<double>(sm.busy[c]);
    const double scale = busy > kernel - tail ? (kernel - tail) / busy : 1.0;
    for (int c = 0; c < kTimeCauses; ++c) sum[c] += static_cast<double>(sm.busy[c]) * scale;
    const double rest = kernel - tail - busy * scale;
    double weights = 0;
    for (int c = 0; c < kTimeCauses; ++c) weights += static_cast<double>(sm.wait[c]);
    for (int c = 0; c < kTimeCauses; ++c)
      sum[c] += weights > 0 ? rest * static_cast<double>(sm.wait[c]) / weights
                            : (c == static_cast<int>(TimeCause::tail) ? rest : 0.0);
    sum[static_cast<int>(TimeCause::tail)] += tail;
  }
  for (int c = 0; c < kTimeCauses; ++c)
    out->breakdown.seconds[static_cast<std::size_t>(c)] = sum[c] / n * 1e-12;
}

namespace timed {

TimedResult TimedRun::finish() {
  TimedResult res;
  TimingSummary& out = res.timing;
  out.kernel_ps = m_kernel_end;
  for (const auto& span : m_programs) out.kernel_ps = std::max(out.kernel_ps, span.end_ps);
  res.counters = m_engine.counters();
  out.costs = m_costs;
  res.programs = std::move(m_programs);
  res.line_ops = m_engine.line_ops();
  res.a_reuse = m_engine.a_reuse();
  res.b_reuse = m_engine.b_reuse();
  const double kernel = static_cast<double>(std::max<std::int64_t>(1, out.kernel_ps));
  out.dram_busy = static_cast<double>(m_memory.dram().busy) / kernel;
  out.l2_busy = static_cast<double>(m_memory.l2().busy) / kernel;
  std::vector<SmTotals> sms;
  sms.reserve(m_sm.size());
  for (const SmState& sm : m_sm) {
    sms.push_back(sm.totals);
    sms.back().fill_ps = sm.fill.busy;
  }
  summarize_sms(sms, &out);
  return res;
}

}  // namespace timed
}  // namespace tilesim::sim
