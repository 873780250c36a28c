// A kernel file's own plan (sim/program/plan_from_records): what the bridge reads from a user's
// file beyond the built-in kernels' steps — a matmul written without its K loop, mask=None, the
// same tensor in two roles, and a plan used only at the problem it was read at.
#include <gtest/gtest.h>

#include <functional>

#include "scenario/kernel_file.hpp"
#include "scenario/resolve.hpp"
#include "sim/program/program_trace.hpp"
#include "tests/triton/fixtures.hpp"
#include "triton/bridge.hpp"

namespace tilesim::triton {
namespace {

using testing::asset_kernel;
using testing::refusal;

// K = 64 fits one block: the student wrote no loop. Its body runs once, at k = 0.
constexpr const char* kNoLoop = R"(
@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
       BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_m = pid // tl.cdiv(N, BLOCK_N)
    pid_n = pid % tl.cdiv(N, BLOCK_N)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K))
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N))
    c = tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c, mask=(rm[:, None] < M) & (rn[None, :] < N))
)";

TEST(FilePlan, AMatmulWithoutItsKLoopIsOneIterationOfTheLoop) {
  const auto l =
      load_kernel_text(kNoLoop, "noloop.py", {},
                       {"a_ptr=100x64:fp16", "b_ptr=64x90:fp16", "c_ptr=100x90:fp16", "M=100",
                        "N=90", "K=64", "BLOCK_M=32", "BLOCK_N=32", "BLOCK_K=64", "grid=12"});
  const Inference inf = infer_problem(*l.ev);
  ASSERT_EQ(inf.plan->body.size(), 3u);
  EXPECT_TRUE(inf.plan->head.empty());
  EXPECT_EQ(inf.plan->body[0].col.axis, sim::Axis::k);
  EXPECT_EQ(inf.plan->body[0].row.index_name, "rm");
  EXPECT_EQ(inf.plan->tail.size(), 1u);
  const sim::Problem p(inf.spec, inf.plan);
  EXPECT_EQ(sim::steps_per_program(p), sim::steps_per_program(sim::Problem(inf.spec)));
  EXPECT_EQ(sim::program_step(p, 11, 3).line, 13);  // the dot, on the file's line
}

TEST(FilePlan, MaskNoneIsNoMask) {
  const std::string src = R"(
@triton.jit
def cp(src, dst, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    pid_m = pid // 4
    pid_n = pid % 4
    r = pid_m * BLOCK + tl.arange(0, BLOCK)
    c = pid_n * BLOCK + tl.arange(0, BLOCK)
    t = tl.load(src + r[:, None] * 64 + c[None, :], mask=None)
    tl.store(dst + r[:, None] * 64 + c[None, :], t)
)";
  const auto l = load_kernel_text(src, "masknone.py", {},
                                  {"src=64x64:fp16", "dst=64x64:fp16", "BLOCK=16", "grid=16"});
  const Inference inf = infer_problem(*l.ev);
  ASSERT_EQ(inf.plan->head.size(), 2u);
  EXPECT_FALSE(inf.plan->head[0].has_mask);
  EXPECT_EQ(inf.plan->head[0].mask_line, 0);
  EXPECT_FALSE(
      sim::tile_access(sim::Problem(inf.spec, inf.plan), sim::StepOp::load, {1, 2}, -1).has_mask);
}

// Masks passed by position (tl.load(ptrs, mask), tl.store(ptrs, value, mask)): the mask's line
// is where that mask was built, not where the pointers were (sim::access_source, the rule the
// app's code panel and inspector read too).
TEST(FilePlan, APositionalMaskIsFoundWhereItWasBuilt) {
  const std::string src = R"(
@triton.jit
def cp(src, dst, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    pid_m = pid // 4
    pid_n = pid % 4
    r = pid_m * BLOCK + tl.arange(0, BLOCK)
    c = pid_n * BLOCK + tl.arange(0, BLOCK)
    ptrs = src + r[:, None] * 60 + c[None, :]
    m = (r[:, None] < 60) & (c[None, :] < 60)
    t = tl.load(ptrs, m)
    outs = dst + r[:, None] * 60 + c[None, :]
    keep = (r[:, None] < 60) & (c[None, :] < 60)
    tl.store(outs, t, keep)
)";
  const auto l = load_kernel_text(src, "positional.py", {},
                                  {"src=60x60:fp16", "dst=60x60:fp16", "BLOCK=16", "grid=16"});
  const Inference inf = infer_problem(*l.ev);
  ASSERT_EQ(inf.plan->head.size(), 2u);
  EXPECT_EQ(inf.plan->head[0].ptr_line, 9);
  EXPECT_EQ(inf.plan->head[0].mask_line, 10);
  EXPECT_EQ(inf.plan->head[0].row.index_name, "r");
  EXPECT_EQ(inf.plan->head[0].col.stride_name, "");  // c[None, :] has no stride written
  EXPECT_EQ(inf.plan->head[1].ptr_line, 12);  // a copy has no loop: its store is in the head
  EXPECT_EQ(inf.plan->head[1].mask_line, 13);
}

// Pointers advanced at the top of the loop (ptrs += ... just before the load): the names the plan
// gives the rows and columns are the pointers' as built, not the advance's.
TEST(FilePlan, PointersAdvancedAtTheLoopsTopKeepTheirNames) {
  const std::string src = R"(
@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
       BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_m = pid // tl.cdiv(N, BLOCK_N)
    pid_n = pid % tl.cdiv(N, BLOCK_N)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = (a_ptr - BLOCK_K) + rm[:, None] * K + rk[None, :]
    b_ptrs = (b_ptr - BLOCK_K * N) + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * N
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)
)";
  const auto l = load_kernel_text(src, "top.py", {},
                                  {"a_ptr=64x64:fp16", "b_ptr=64x64:fp16", "c_ptr=64x64:fp16",
                                   "M=64", "N=64", "K=64", "BLOCK_M=32", "BLOCK_N=32",
                                   "BLOCK_K=16", "grid=4"});
  const Inference inf = infer_problem(*l.ev);
  ASSERT_EQ(inf.plan->body.size(), 3u);
  EXPECT_EQ(inf.plan->body[0].ptr_line, 15);  // the advance: where the pointers last changed
  EXPECT_EQ(inf.plan->body[0].row.index_name, "rm");
  EXPECT_EQ(inf.plan->body[0].row.stride_name, "K");
  EXPECT_EQ(inf.plan->body[0].col.index_name, "rk");
  EXPECT_EQ(inf.plan->body[1].row.index_name, "rk");
  EXPECT_EQ(inf.plan->body[1].col.index_name, "rn");
}

TEST(FilePlan, OneTensorInTwoRolesIsRefusedByName) {
  const std::string copy = R"(
@triton.jit
def cp(src, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    r = (pid // 4) * BLOCK + tl.arange(0, BLOCK)
    c = (pid % 4) * BLOCK + tl.arange(0, BLOCK)
    t = tl.load(src + r[:, None] * 64 + c[None, :])
    tl.store(src + r[:, None] * 64 + c[None, :], t)
)";
  const auto l =
      load_kernel_text(copy, "inplace.py", {}, {"src=64x64:fp16", "BLOCK=16", "grid=16"});
  const std::string why = refusal([&] { infer_problem(*l.ev); });
  EXPECT_NE(why.find("src is both in and out"), std::string::npos) << why;
}

TEST(FilePlan, AScenariosFilePlanIsUsedOnlyAtTheProblemItWasReadAt) {
  scenario::Scenario s =
      scenario::open_kernel_file(asset_kernel("seed004_grouped_matmul.py")).scenario;
  ASSERT_TRUE(s.file_plan.plan);
  EXPECT_EQ(scenario::problem_of(s).plan_ptr(), s.file_plan.plan);
  // A flag or an edit changes the problem: it is no longer the file's, the built-in's steps run.
  s.problem.m = 100;
  s.problem.boundary = sim::Boundary::mask;
  const sim::Problem edited = scenario::problem_of(s);
  EXPECT_EQ(edited.plan_ptr(),
            sim::builtin_plan(sim::Kernel::matmul, sim::Boundary::mask, s.problem.order));
  EXPECT_EQ(sim::program_step(edited, 1, 1).span->lanes_on(), 36 * 64);  // rows 64..99 of 100
}

}  // namespace
}  // namespace tilesim::triton

namespace tilesim::triton {
namespace {

// The tutorial's file holds matmul_kernel and its helper leaky_relu; its "# launch:" comments
// fit only matmul_kernel, which is then opened without --function. The Open kernel list offers
// every bundled file that opens: not the built-in listings' {launch_order} templates.
TEST(FilePlan, AFileOfSeveralFunctionsOpensTheOneItsLaunchFits) {
  const auto l = load_kernel_file(testing::asset_kernel("tutorial_matmul.py"));
  EXPECT_EQ(l.source->fn.name, "matmul_kernel");
  const auto files = scenario::bundled_kernel_files();
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    EXPECT_EQ(f.filename().string().find("_mask.py"), std::string::npos);
    EXPECT_EQ(f.filename().string().find("_wrap.py"), std::string::npos);
    EXPECT_NO_THROW(scenario::open_kernel_file(f.string()));
  }
}

}  // namespace
}  // namespace tilesim::triton
