// The kernels written for the tests (tests/triton/kernels/): a column-major pid map is
// recognised as sim's column-major copy; split-K with tl.atomic_add is refused at the call; the
// row softmax parses and evaluates and the bridge refuses it at its store.
#include <gtest/gtest.h>

#include "tests/triton/fixtures.hpp"
#include "triton/bounds_check.hpp"
#include "triton/bridge.hpp"

namespace tilesim::triton {
namespace {

using testing::load;
using testing::refusal;
using testing::test_kernel;

TEST(TestKernels, ColumnMajorCopyIsSimsColumnMajorOrder) {
  const auto k = load(test_kernel("column_major_copy.py"));
  const Inference inf = infer_problem(*k.ev);
  EXPECT_EQ(inf.spec.kernel, sim::Kernel::copy);
  EXPECT_EQ(inf.spec.order, sim::LaunchOrder::column_major);
  EXPECT_EQ(inf.spec.m, 300);
  EXPECT_EQ(inf.spec.block_n, 32);
  EXPECT_EQ(inf.programs_checked, 35);
}

TEST(TestKernels, SplitKWithAtomicAddIsRefusedAtTheCall) {
  EXPECT_EQ(refusal([] { load(test_kernel("split_k_matmul.py")); }),
            "split_k_matmul.py:27:5: tl.atomic_add is not supported yet");
}

TEST(TestKernels, SoftmaxParsesEvaluatesAndIsRefusedByTheBridgeAtItsStore) {
  const auto k = load(test_kernel("softmax_rows.py"));
  EXPECT_EQ(k.ev->run(99).records.size(), 2u);
  EXPECT_EQ(refusal([&] { infer_problem(*k.ev); }),
            "softmax_rows.py:24:5: the stored tile is computed from the loaded one: sim models "
            "copy, transpose and matmul only");
}

TEST(TestKernels, ACustomPidMapIsReportedAsCustom) {
  // pid_n = pid % 4, pid_m = pid // 4 but rows reversed: no launch order of sim's.
  const std::string src = R"(
@triton.jit
def k(src, dst, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    pid_m = 3 - pid // 4
    pid_n = pid % 4
    r = pid_m * BLOCK + tl.arange(0, BLOCK)
    c = pid_n * BLOCK + tl.arange(0, BLOCK)
    t = tl.load(src + r[:, None] * 64 + c[None, :])
    tl.store(dst + r[:, None] * 64 + c[None, :], t)
)";
  const auto l = load_kernel_text(src, "custom.py", {},
                                  {"src=64x64:fp16", "dst=64x64:fp16", "BLOCK=16", "grid=16"});
  const std::string why = refusal([&] { infer_problem(*l.ev); });
  EXPECT_NE(why.find("custom launch order"), std::string::npos) << why;
}

TEST(TestKernels, AMissingMaskIsReportedWithTheLanesOutside) {
  const std::string src = R"(
@triton.jit
def k(src, dst, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    r = pid * BLOCK + tl.arange(0, BLOCK)
    c = tl.arange(0, BLOCK)
    t = tl.load(src + r[:, None] * N + c[None, :], mask=(r[:, None] < N) & (c[None, :] < N))
    tl.store(dst + r[:, None] * N + c[None, :], t)
)";
  const auto l = load_kernel_text(
      src, "nomask.py", {}, {"src=40x40:fp16", "dst=40x40:fp16", "N=40", "BLOCK=64", "grid=1"});
  EXPECT_EQ(
      refusal([&] { infer_problem(*l.ev); }),
      "nomask.py:8:5: pid 0: this access is not a tile sim can model: 2496 lanes fall outside dst "
      "and no mask turns them off");
}

// Issue 26's check: a kernel with a mask missing on its last rows of tiles is reported with
// pid, line and lanes; the same kernel with the mask is not.
TEST(TestKernels, AMissingMaskIsReportedWithPidLineAndLanesAndTheMaskedKernelIsNot) {
  const std::string src = R"(
@triton.jit
def copy_rows(src, dst, M, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    r = pid * BLOCK + tl.arange(0, BLOCK)
    c = tl.arange(0, 64)
    inside = (r[:, None] < M) & (c[None, :] < N)
    t = tl.load(src + r[:, None] * N + c[None, :], mask=inside)
    tl.store(dst + r[:, None] * N + c[None, :], t{MASK})
)";
  const std::vector<std::string> launch{"src=100x64:fp16", "dst=100x64:fp16", "M=100", "N=64",
                                        "BLOCK=32",        "grid=4"};
  auto text = [&](const std::string& mask) {
    std::string s = src;
    s.replace(s.find("{MASK}"), 6, mask);
    return s;
  };
  const auto bad = load_kernel_text(text(""), "rows.py", {}, launch);
  const auto found = out_of_bounds(*bad.ev);
  ASSERT_EQ(found.size(), 1u);
  // pid 3 covers rows 96..127: rows 100..127 are past M, 28 rows x 64 lanes.
  EXPECT_EQ(found[0].text(), "pid 3, line 9: 1792 lanes of dst written outside it (no mask)");
  const auto good = load_kernel_text(text(", mask=inside"), "rows.py", {}, launch);
  EXPECT_TRUE(out_of_bounds(*good.ev).empty());
  EXPECT_EQ(infer_problem(*good.ev).spec.kernel, sim::Kernel::copy);
}

}  // namespace
}  // namespace tilesim::triton
