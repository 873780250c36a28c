// Program plans: the built-in kernels' steps are read by the front end from their listings
// (assets/kernels/), and they are the curriculum's steps — the rectangles, wraps, lines and
// names a student reads. A listing edited in the wrong way would change a plan and fail here.
#include "sim/program/program_plan.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <tuple>
#include <vector>

#include "sim/program/listing.hpp"
#include "sim/program/program_trace.hpp"

using namespace tilesim::sim;

namespace {

std::string trimmed_line(const Listing& l, int line) {
  if (line < 1 || line > static_cast<int>(l.lines.size())) return "<none>";
  const std::string& t = l.lines[static_cast<std::size_t>(line - 1)];
  return t.substr(t.find_first_not_of(' '));
}

bool starts(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

struct Want {
  StepOp op;
  Operand operand;
  Axis row, col;
  bool wrap_row, wrap_col;
  const char *matrix, *row_name, *col_name, *row_stride, *col_stride;
  const char *line, *ptr_line, *mask_line;  // prefixes of the lines; "" where none
};

void expect_step(const PlanStep& s, const Want& w, const Listing& l) {
  SCOPED_TRACE(std::string(to_string(w.op)));
  EXPECT_EQ(s.op, w.op);
  EXPECT_TRUE(starts(trimmed_line(l, s.line), w.line)) << trimmed_line(l, s.line);
  if (!is_memory_op(w.op)) return;
  EXPECT_EQ(s.operand, w.operand);
  EXPECT_EQ(s.row.axis, w.row);
  EXPECT_EQ(s.col.axis, w.col);
  EXPECT_EQ(s.row.wrap, w.wrap_row);
  EXPECT_EQ(s.col.wrap, w.wrap_col);
  EXPECT_EQ(s.matrix_name, w.matrix);
  EXPECT_EQ(s.row.index_name, w.row_name);
  EXPECT_EQ(s.col.index_name, w.col_name);
  EXPECT_EQ(s.row.stride_name, w.row_stride);
  EXPECT_EQ(s.col.stride_name, w.col_stride);
  EXPECT_TRUE(starts(trimmed_line(l, s.ptr_line), w.ptr_line)) << trimmed_line(l, s.ptr_line);
  if (*w.mask_line) {
    EXPECT_TRUE(s.has_mask);
    EXPECT_TRUE(starts(trimmed_line(l, s.mask_line), w.mask_line)) << trimmed_line(l, s.mask_line);
  } else {
    EXPECT_FALSE(s.has_mask);
    EXPECT_EQ(s.mask_line, 0);
  }
}

constexpr LaunchOrder kOrders[] = {LaunchOrder::row_major, LaunchOrder::column_major,
                                   LaunchOrder::grouped, LaunchOrder::grouped_legacy};

}  // namespace

TEST(ProgramPlan, MatmulListingsAreALoopOfLoadALoadBDotThenAStore) {
  for (auto bd : {Boundary::mask, Boundary::wrap})
    for (auto o : kOrders) {
      SCOPED_TRACE(std::string(to_string(bd)) + " " + std::string(to_string(o)));
      const auto plan = builtin_plan(Kernel::matmul, bd, o);
      const Listing& l = kernel_listing(Kernel::matmul, bd, o);
      EXPECT_EQ(plan->source, l.name);
      EXPECT_EQ(plan->lines, l.lines);  // the text every step's line numbers
      EXPECT_EQ(plan->kernel, Kernel::matmul);
      EXPECT_TRUE(starts(trimmed_line(l, plan->map_line), "pid_n ="));
      EXPECT_TRUE(plan->head.empty());
      ASSERT_EQ(plan->body.size(), 3u);
      ASSERT_EQ(plan->tail.size(), 1u);
      const bool w = bd == Boundary::wrap;
      expect_step(
          plan->body[0],
          {StepOp::load_a, Operand::a, Axis::m, Axis::k, w, false, "A", w ? "offs_am" : "offs_m",
           "offs_k", "stride_am", "stride_ak", "a = tl.load(", "a_ptrs =", "a_mask ="},
          l);
      expect_step(plan->body[1],
                  {StepOp::load_b, Operand::b, Axis::k, Axis::n, false, w, "B", "offs_k",
                   w ? "offs_bn" : "offs_n", "stride_bk", "stride_bn", "b = tl.load(",
                   "b_ptrs =", "b_mask ="},
                  l);
      expect_step(
          plan->body[2],
          {StepOp::dot, {}, {}, {}, false, false, "", "", "", "", "", "acc += tl.dot(", "", ""}, l);
      expect_step(
          plan->tail[0],
          {StepOp::store, Operand::c, Axis::m, Axis::n, false, false, "C", w ? "offs_cm" : "offs_m",
           w ? "offs_cn" : "offs_n", "stride_cm", "stride_cn", "tl.store(", "c_ptrs =", "c_mask ="},
          l);
    }
}

TEST(ProgramPlan, CopyAndTransposeListingsLoadOnceAndStoreOnceTransposeBetween) {
  for (auto bd : {Boundary::mask, Boundary::wrap})
    for (auto o : kOrders) {
      SCOPED_TRACE(std::string(to_string(bd)) + " " + std::string(to_string(o)));
      const bool w = bd == Boundary::wrap;
      {
        const auto plan = builtin_plan(Kernel::copy, bd, o);
        const Listing& l = kernel_listing(Kernel::copy, bd, o);
        ASSERT_EQ(plan->head.size(), 2u);
        EXPECT_TRUE(plan->body.empty());
        EXPECT_TRUE(plan->tail.empty());
        expect_step(plan->head[0],
                    {StepOp::load, Operand::a, Axis::m, Axis::n, w, w, "in", w ? "rows" : "offs_m",
                     w ? "cols" : "offs_n", "stride_row", "stride_col", "tile = tl.load(",
                     "in_ptrs =", w ? "" : "mask ="},
                    l);
        expect_step(
            plan->head[1],
            {StepOp::store, Operand::c, Axis::m, Axis::n, false, false, "out", "offs_m", "offs_n",
             "stride_row", "stride_col", "tl.store(", "out_ptrs =", w ? "out_mask =" : "mask ="},
            l);
      }
      {
        const auto plan = builtin_plan(Kernel::transpose, bd, o);
        const Listing& l = kernel_listing(Kernel::transpose, bd, o);
        ASSERT_EQ(plan->head.size(), 3u);
        expect_step(plan->head[0],
                    {StepOp::load, Operand::a, Axis::m, Axis::n, w, w, "in", w ? "rows" : "offs_m",
                     w ? "cols" : "offs_n", "stride_ir", "stride_ic", "tile = tl.load(",
                     "in_ptrs =", w ? "" : "in_mask ="},
                    l);
        expect_step(plan->head[1],
                    {StepOp::transpose,
                     {},
                     {},
                     {},
                     false,
                     false,
                     "",
                     "",
                     "",
                     "",
                     "",
                     "tile_t = tl.trans(",
                     "",
                     ""},
                    l);
        // The store walks out's rows along n: the (pid_n, pid_m) tile of the (N, M) output.
        expect_step(plan->head[2],
                    {StepOp::store, Operand::c, Axis::n, Axis::m, false, false, "out", "offs_n",
                     "offs_m", "stride_or", "stride_oc", "tl.store(", "out_ptrs =", "out_mask ="},
                    l);
      }
    }
}

TEST(ProgramPlan, ProblemsCarryTheirListingsPlanAndAForeignPlanOfAnotherKernelIsRefused) {
  ProblemSpec s;
  s.kernel = Kernel::transpose;
  const Problem p(s);
  EXPECT_EQ(p.plan_ptr(), builtin_plan(Kernel::transpose, s.boundary, s.order));
  EXPECT_EQ(steps_per_program(p), 4);
  s.kernel = Kernel::matmul;
  EXPECT_THROW(Problem(s, builtin_plan(Kernel::copy, s.boundary, s.order)), InvalidField);
}

TEST(ProgramPlan, SameStepsNamesTheFirstDifference) {
  const auto mask = builtin_plan(Kernel::matmul, Boundary::mask, LaunchOrder::grouped);
  const auto wrap = builtin_plan(Kernel::matmul, Boundary::wrap, LaunchOrder::row_major);
  // Lines, names and wraps may differ: the steps are the same rectangles in the same order.
  EXPECT_FALSE(same_steps(*wrap, *mask).has_value());
  ProgramPlan swapped = *mask;
  std::swap(swapped.body[0], swapped.body[1]);
  const auto why = same_steps(swapped, *mask);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("in the K loop, step 1: load_b where sim's has load_a"), std::string::npos)
      << *why;
  ProgramPlan extra = *mask;
  extra.tail.push_back(extra.tail.back());
  ASSERT_TRUE(same_steps(extra, *mask).has_value());
  EXPECT_NE(same_steps(extra, *mask)->find("a store more"), std::string::npos);
  EXPECT_NE(same_steps(*builtin_plan(Kernel::copy, Boundary::mask, LaunchOrder::grouped), *mask)
                ->find("copy"),
            std::string::npos);
}

// The built-in plans are read on first use and cached per (kernel, boundary, order) for the
// process (builtin_plan: a map under a mutex). Many threads asking at once, each in its own
// order, get one plan per key: the same object whoever read it. scripts/tsan runs this one
// ("Concurrent") under ThreadSanitizer, in a process of its own so that the calls are first ones.
TEST(ProgramPlanConcurrent, FirstCallsFromManyThreadsGetOnePlanPerKey) {
  using tilesim::sim::Boundary, tilesim::sim::Kernel, tilesim::sim::LaunchOrder;
  std::vector<std::tuple<Kernel, Boundary, LaunchOrder>> keys;
  for (const Kernel k : {Kernel::matmul, Kernel::copy, Kernel::transpose})
    for (const Boundary b : {Boundary::mask, Boundary::wrap})
      for (const LaunchOrder o : {LaunchOrder::row_major, LaunchOrder::column_major,
                                  LaunchOrder::grouped, LaunchOrder::grouped_legacy})
        keys.emplace_back(k, b, o);
  constexpr int kThreads = 8;
  std::vector<std::vector<std::shared_ptr<const tilesim::sim::ProgramPlan>>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      got[t].resize(keys.size());
      for (std::size_t i = 0; i < keys.size(); ++i) {
        const std::size_t j = (i * 7 + static_cast<std::size_t>(t) * 5) % keys.size();
        const auto& [k, b, o] = keys[j];
        got[t][j] = tilesim::sim::builtin_plan(k, b, o);
      }
    });
  for (auto& th : threads) th.join();
  for (std::size_t j = 0; j < keys.size(); ++j) {
    ASSERT_TRUE(got[0][j]) << j;
    EXPECT_FALSE(got[0][j]->lines.empty()) << j;
    for (int t = 1; t < kThreads; ++t)
      EXPECT_EQ(got[t][j], got[0][j]) << "thread " << t << ", key " << j;
  }
}
