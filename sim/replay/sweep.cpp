// Sweep: a work queue of configurations drained by std::threads; results land at their index,
// so the output order (and every number) is independent of scheduling.
#include "sim/replay/sweep.hpp"

#include <atomic>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "sim/replay/replay.hpp"

namespace tilesim::sim {

std::vector<ProblemSpec> sweep_specs(const ProblemSpec& base, const SweepAxes& axes) {
  const auto or_base = [](const auto& list, auto value) {
    using T = std::decay_t<decltype(value)>;
    return list.empty() ? std::vector<T>{value} : std::vector<T>(list.begin(), list.end());
  };
  std::vector<ProblemSpec> out;
  const auto group_sizes = or_base(axes.group_size_m, base.group_size_m);
  for (const auto order : or_base(axes.orders, base.order))
    for (const auto gm : group_sizes) {
      // Only the grouped orders read GROUP_SIZE_M: the others get one row, not one per value.
      const bool grouped = order == LaunchOrder::grouped || order == LaunchOrder::grouped_legacy;
      if (!grouped && gm != group_sizes.front()) continue;
      for (const auto bm : or_base(axes.block_m, base.block_m))
        for (const auto bn : or_base(axes.block_n, base.block_n))
          for (const auto bk : or_base(axes.block_k, base.block_k))
            for (const auto st : or_base(axes.stages, base.stages)) {
              ProblemSpec s = base;
              s.order = order;
              s.group_size_m = gm;
              s.block_m = bm;
              s.block_n = bn;
              s.block_k = bk;
              s.stages = st;
              out.push_back(s);
            }
    }
  return out;
}

namespace {

// Threads run_sweep starts: `threads` (0: one per core), at most one per spec.
int worker_threads(int threads, std::size_t specs) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::min<int>(threads, std::max<int>(1, static_cast<int>(specs)));
}

}  // namespace

std::vector<SweepRow> run_sweep(const std::vector<ProblemSpec>& specs, const Machine& m,
                                std::optional<int> pps_override, int threads,
                                const std::function<void(int, int)>& progress,
                                const std::atomic<bool>* cancel, const TimingOptions& timing) {
  const auto cancelled = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
  std::vector<SweepRow> rows(specs.size());
  std::atomic<std::size_t> next{0};
  std::mutex progress_mutex;
  int done = 0;
  const int total = static_cast<int>(specs.size());
  const auto worker = [&]() {
    for (std::size_t i; !cancelled() && (i = next.fetch_add(1)) < specs.size();) {
      SweepRow& row = rows[i];
      row.spec = specs[i];
      try {
        const Problem p(specs[i]);
        const Occupancy occ = occupancy(p, m, pps_override, timing);
        ReplayOptions o;  // the timed order
        o.timing = timing;
        o.cancel = cancel;
        row.result = replay(p, m, occ, o);
      } catch (const std::exception& e) {
        row.error = e.what();
      }
      if (progress) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        progress(++done, total);
      }
    }
  };
  threads = worker_threads(threads, specs.size());
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  if (cancelled()) throw std::runtime_error("cancelled");
  return rows;
}

ReplayCost estimate_sweep_cost(const std::vector<ProblemSpec>& specs, const Machine& m,
                               int threads) {
  ReplayCost total;
  for (const auto& spec : specs) {
    try {
      const ReplayCost c = estimate_replay_cost(Problem(spec), m);
      total.memory_bytes = std::max(total.memory_bytes, c.memory_bytes);
      total.line_ops += c.line_ops;
      total.seconds += c.seconds;
    } catch (const InvalidField&) {
    }
  }
  total.seconds /= worker_threads(threads, specs.size());
  return total;
}

}  // namespace tilesim::sim
