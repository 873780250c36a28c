// tilesim-sim-bench: how fast the simulator replays, in events/s and sector look-ups/s.
// Cases: the full 8192^3 fp16 matmul replay on H100 (counters only, one core), timed engine and
// lockstep rounds, the same at 4096^3 in both launch orders, a timeline build and random seeks on
// 2048^3. Usage: tilesim-sim-bench [--quick]  (--quick skips 8192^3)
//        tilesim-sim-bench --timed-8192 [N]  (only the timed 8192^3 replays, N repeats each
//        (default 7): min and median of wall and thread CPU time, for a box shared with others)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <vector>

#include "sim/replay/engine.hpp"
#include "sim/replay/timeline.hpp"
#include "sim/timing/timed_engine.hpp"

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

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The timed replay `repeats` times: wall and thread CPU time (the CPU time is what a busy box
// inflates least: waiting for a core is not counted, sharing its caches still is).
void bench_timed_repeats(const Problem& p, const Machine& m, int repeats) {
  const Occupancy occ = occupancy(p, m);
  std::vector<double> wall, cpu;
  ReplayResult r;
  for (int i = 0; i < repeats; ++i) {
    const auto t0 = Clock::now();
    const double c0 = thread_cpu_seconds();
    r = replay_timed(p, m, occ);
    cpu.push_back(thread_cpu_seconds() - c0);
    wall.push_back(seconds_since(t0));
  }
  std::printf(
      "timed  %lld^3 %-9s %s, %d runs: wall min %.3f / median %.3f s, CPU min %.3f / median "
      "%.3f s | %lld events, %lld line ops, DRAM read %.4f GB, hit rate %.4f, predicted %.6f ms\n",
      (long long)p.m(), std::string(to_string(p.order())).c_str(), m.name.c_str(), repeats,
      *std::min_element(wall.begin(), wall.end()), median(wall),
      *std::min_element(cpu.begin(), cpu.end()), median(cpu), (long long)r.counters.events,
      (long long)r.line_ops, r.counters.dram_read_bytes / 1e9, r.counters.l2_hit_rate(),
      r.timing.time_s() * 1e3);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const Machine h100 = *find_machine("h100");
  if (argc > 1 && std::strcmp(argv[1], "--timed-8192") == 0) {
    const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 7;
    bench_timed_repeats(matmul(8192, LaunchOrder::grouped), h100, repeats);
    bench_timed_repeats(matmul(8192, LaunchOrder::row_major), h100, repeats);
    return 0;
  }
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
