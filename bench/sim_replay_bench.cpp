// tilesim-sim-bench: how fast the simulator replays, in events/s and sector look-ups/s.
// Cases: the full 8192^3 fp16 matmul replay on H100 (counters only, one core), timed engine and
// lockstep rounds, the same at 4096^3 in both launch orders, a timeline build and random seeks on
// 2048^3. Usage: tilesim-sim-bench [--quick]  (--quick skips 8192^3)
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>

#include "sim/replay/engine.hpp"
#include "sim/timing/timed_engine.hpp"
#include "sim/replay/timeline.hpp"

using namespace tilesim::sim;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

Problem matmul(std::int64_t n, LaunchOrder order, int bm = 128, int bn = 128, int bk = 64) {
  ProblemSpec s;
  s.m = s.n = s.k = n;
  s.block_m = bm, s.block_n = bn, s.block_k = bk;
  s.group_size_m = 8;
  s.order = order;
  return Problem(s);
}

// timed: the timed engine (the default of `run`); otherwise the lockstep round replay.
void bench_replay(const Problem& p, const Machine& m, int repeats, bool timed) {
  const Occupancy occ = occupancy(p, m);
  double best = 1e30;
  ReplayResult r;
  for (int i = 0; i < repeats; ++i) {
    const auto t0 = Clock::now();
    r = timed ? replay_timed(p, m, occ) : replay_rounds(p, m, occ);
    best = std::min(best, seconds_since(t0));
  }
  const auto& c = r.counters;
  std::printf(
      "%s %lld^3 %-9s %s: %.3f s (best of %d) | %lld events, %.2f M events/s | %lld line "
      "ops, %lld sector look-ups, %.0f M sectors/s | DRAM read %.2f GB, hit rate %.3f | "
      "predicted %.3f ms\n",
      timed ? "timed " : "rounds", (long long)p.m(), std::string(to_string(p.order())).c_str(),
      m.name.c_str(), best, repeats, (long long)c.events, c.events / best / 1e6,
      (long long)r.line_ops, (long long)c.l2_sectors(), c.l2_sectors() / best / 1e6,
      c.dram_read_bytes / 1e9, c.l2_hit_rate(), r.timing.time_s() * 1e3);
}

void bench_timeline(const Problem& p, const Machine& m) {
  const Occupancy occ = occupancy(p, m);
  auto t0 = Clock::now();
  TimelineOptions o;
  o.order = EventOrderKind::lockstep;  // the round timeline; the timed one records its events
  Timeline tl(p, m, occ, o);
  const double build = seconds_since(t0);
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<std::int64_t> pick(0, tl.events());
  double worst = 0, sum = 0;
  const int seeks = 200;
  for (int i = 0; i < seeks; ++i) {
    const auto target = pick(rng);
    t0 = Clock::now();
    tl.seek(target);
    (void)tl.snapshot();
    const double s = seconds_since(t0);
    worst = std::max(worst, s);
    sum += s;
  }
  std::printf(
      "timeline %lld^3 %dx%dx%d %s: build %.3f s, %lld events, %.1f MiB | %d random seeks + "
      "snapshot: mean %.2f ms, worst %.2f ms\n",
      (long long)p.m(), p.block_m(), p.block_n(), p.block_k(), m.name.c_str(), build,
      (long long)tl.events(), tl.memory_bytes() / 1048576.0, seeks, sum / seeks * 1e3, worst * 1e3);
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const Machine h100 = *find_machine("h100");
  for (const bool timed : {true, false}) {
    if (!quick) {
      bench_replay(matmul(8192, LaunchOrder::grouped), h100, 3, timed);
      bench_replay(matmul(8192, LaunchOrder::row_major), h100, 3, timed);
    }
    bench_replay(matmul(4096, LaunchOrder::grouped), h100, 3, timed);
    bench_replay(matmul(4096, LaunchOrder::row_major), h100, 3, timed);
  }
  bench_timeline(matmul(2048, LaunchOrder::grouped), h100);
  bench_timeline(matmul(2048, LaunchOrder::grouped, 32, 32, 32), h100);
  bench_timeline(matmul(2048, LaunchOrder::row_major, 16, 16, 16), h100);
  return 0;
}
