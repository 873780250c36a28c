// Each program's time by cause, as the timed engine attributes it while it runs: a program alone
// with one stage has nothing overlapping, so its causes add up to its span exactly; compute-bound
// programs are mostly math, a copy's mostly its loads; no program's time goes to the tail; the
// timed order's "what it waited on" is the engine's own attribution.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "sim/replay/event_order.hpp"
#include "sim/timing/timed_engine.hpp"

using namespace tilesim::sim;

namespace {

Machine steady() {
  Machine m = *find_machine("h100");
  m.dot_time_diffusion_s = m.dot_time_diffusion_miss_s = 0;
  m.load_round_cv = 0;
  return m;
}

std::int64_t ps(const ProgramSpan& s, TimeCause c) {
  return s.time_by_cause[static_cast<std::size_t>(c)];
}

TimedResult timed(const ProblemSpec& s, const Machine& m, std::vector<TimedEvent>* ev = nullptr) {
  const Problem p(s);
  TimedOptions opt;
  // The engine's own accounting, without Triton's compiler choices (a one-stage Triton program
  // would stage its tiles through registers: tests/sim/triton_timing_test.cpp).
  opt.timing.triton = false;
  opt.events = ev;
  return run_timed(p, m, occupancy(p, m), opt);
}

}  // namespace

TEST(ProgramTime, AProgramAloneWithOneStageAddsUpToItsSpan) {
  ProblemSpec s;
  s.m = s.n = 64, s.k = 128;
  s.block_m = s.block_n = s.block_k = 64;
  s.stages = 1;
  std::vector<TimedEvent> ev;
  const TimedResult r = timed(s, steady(), &ev);
  ASSERT_EQ(r.programs.size(), 1u);
  const ProgramSpan& p = r.programs[0];
  const StepCosts& c = r.timing.costs;
  EXPECT_EQ(ps(p, TimeCause::launch), c.launch_ps);
  // Its two dots' time by cause (math, shared memory, conflicts) is their events' time.
  const std::int64_t dots = (ev[3].end_ps - ev[3].start_ps) + (ev[6].end_ps - ev[6].start_ps);
  EXPECT_EQ(ps(p, TimeCause::math) + ps(p, TimeCause::smem) + ps(p, TimeCause::bank_conflict),
            dots);
  const std::int64_t all =
      std::accumulate(p.time_by_cause.begin(), p.time_by_cause.end(), std::int64_t{0});
  EXPECT_EQ(all, p.end_ps - p.start_ps);
  EXPECT_EQ(ps(p, TimeCause::tail), 0);
}

TEST(ProgramTime, ComputeBoundProgramsAreMostlyMathACopysMostlyItsLoads) {
  ProblemSpec mm;
  mm.m = mm.n = mm.k = 2048;
  mm.dtype = DType::fp16;
  mm.block_m = mm.block_n = 128, mm.block_k = 64;
  // Two programs share each SM: a program's wait for its tiles can overlap its neighbour's
  // dots, so a few programs waited on the L2 longer than they computed or waited for the
  // neighbour's math; most computed.
  const std::vector<ProgramSpan> spans = timed(mm, steady()).programs;
  const auto math = std::count_if(spans.begin(), spans.end(), [](const ProgramSpan& p) {
    return main_cause(p) == TimeCause::math;
  });
  EXPECT_GT(4 * math, 3 * static_cast<std::int64_t>(spans.size()))
      << math << " of " << spans.size();
  ProblemSpec copy;
  copy.kernel = Kernel::copy;
  copy.m = copy.n = 4096;
  copy.dtype = DType::fp32;
  copy.block_m = copy.block_n = 64;
  for (const ProgramSpan& p : timed(copy, steady()).programs) {
    const TimeCause c = main_cause(p);
    EXPECT_TRUE(c == TimeCause::latency || c == TimeCause::dram || c == TimeCause::sm_load ||
                c == TimeCause::l2)
        << "pid " << p.pid << ": " << to_string(c);
    EXPECT_EQ(ps(p, TimeCause::tail), 0);
  }
}

TEST(ProgramTime, TheTimedOrderReportsTheEnginesOwnAttribution) {
  ProblemSpec s;
  s.m = s.n = s.k = 512;
  s.block_m = s.block_n = 64, s.block_k = 32;
  const Problem p(s);
  const Machine m = steady();
  const Occupancy occ = occupancy(p, m);
  std::vector<TimedEvent> ev;
  TimedOptions opt;
  opt.events = &ev;
  TimedResult r = run_timed(p, m, occ, opt);
  const std::vector<ProgramSpan> spans = r.programs;
  const TimedOrder order(p, m, std::int64_t{m.sms} * occ.programs_per_sm, std::move(ev),
                         std::move(r.programs), r.timing.kernel_ps);
  for (const ProgramSpan& span : spans) EXPECT_EQ(order.waited_on(span.pid), main_cause(span));
}

TEST(ProgramTime, MainCauseIsTheLargestAndTheFirstOfEquals) {
  ProgramSpan s;
  s.time_by_cause[static_cast<std::size_t>(TimeCause::dram)] = 5;
  s.time_by_cause[static_cast<std::size_t>(TimeCause::math)] = 5;
  EXPECT_EQ(main_cause(s), TimeCause::dram);
  s.time_by_cause[static_cast<std::size_t>(TimeCause::math)] = 6;
  EXPECT_EQ(main_cause(s), TimeCause::math);
}

TEST(TimeCauseNames, NameEveryCauseOnceInEnumOrderAndOnlyTheTailIsNoProgramsCause) {
  ASSERT_EQ(kTimeCauseNames.size(), static_cast<std::size_t>(kTimeCauses));
  for (int c = 0; c < kTimeCauses; ++c) {
    const auto cause = static_cast<TimeCause>(c);
    EXPECT_EQ(kTimeCauseNames[static_cast<std::size_t>(c)].first, cause);
    EXPECT_EQ(to_string(cause), kTimeCauseNames[static_cast<std::size_t>(c)].second);
    EXPECT_EQ(is_program_cause(cause), cause != TimeCause::tail);
  }
}
