// Every implemented variant, every dtype it takes, every launch order, at odd sizes (every edge
// masked) and one larger size checked against cuBLAS SGEMM: correct and every element written.
#include <gtest/gtest.h>

#include "gpu_skip.hpp"
#include "kernels/matmul_mma_sync_tiles.hpp"

using namespace tilesim;

namespace {

struct Size {
  std::int64_t m, n, k;
  int bm, bn, bk;
  std::int64_t g;
};

std::vector<Size> sizes_for(sim::Kernel k) {
  if (k != sim::Kernel::matmul)
    return {{574, 574, 1, 64, 64, 1, 3}, {1000, 777, 1, 32, 64, 1, 5}, {37, 45, 1, 16, 32, 1, 2}};
  return {{574, 574, 574, 64, 64, 64, 3},
          {1000, 777, 333, 64, 64, 32, 5},
          {37, 45, 29, 16, 32, 16, 2},
          {1000, 1000, 1000, 64, 64, 32, 3},   // K, N multiples of 8: the aligned cp.async path
          {2000, 1000, 1504, 64, 64, 32, 4}};  // over the CPU limit: cuBLAS SGEMM reference
}

class EveryVariant : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryVariant, IsCorrectInEveryLaunchOrderAtOddSizes) {
  TILESIM_SKIP_WITHOUT_GPU();
  const kernels::Variant* v = kernels::find_variant(GetParam());
  ASSERT_NE(v, nullptr);
  if (!v->implemented) GTEST_SKIP() << v->name << " is listed as missing";
  kernels::RunOptions o;
  o.time = false;
  const auto dev = kernels::query_device();
  if (dev.cc_major * 10 + dev.cc_minor < v->min_cc)
    GTEST_SKIP() << v->name << " needs cc " << v->min_cc;
  std::size_t case_index = 0;
  for (const Size& s : sizes_for(v->kernel))
    for (sim::DType d : v->dtypes)
      for (auto order : {sim::LaunchOrder::row_major, sim::LaunchOrder::column_major,
                         sim::LaunchOrder::grouped, sim::LaunchOrder::grouped_legacy}) {
        sim::ProblemSpec p;
        p.kernel = v->kernel;
        p.m = s.m;
        p.n = s.n;
        p.k = s.k;
        p.dtype = d;
        p.block_m = s.bm;
        p.block_n = s.bn;
        p.block_k = s.bk;
        p.group_size_m = s.g;
        p.order = order;
        // The templated rung runs only its instantiated tiles: each case takes the next one
        // that fits the sizes (sim::Problem refuses a block past the matrix's next power of 2).
        if (v->name == "matmul_mma_sync_tiles") {
          const auto& all = kernels::mma_sync_tiles::kConfigs;
          for (std::size_t tries = 0; tries < std::size(all); ++tries) {
            p = kernels::mma_sync_tiles::with_config(p, all[case_index++ % std::size(all)]);
            try {
              sim::Problem{p};
              break;
            } catch (const sim::InvalidField&) {
            }
          }
        }
        const auto r = kernels::run(sim::Problem(p), v->name, o);
        EXPECT_TRUE(r.ok) << v->name << " " << s.m << "x" << s.n << "x" << s.k << " "
                          << sim::to_string(d) << " " << sim::to_string(order) << ": " << r.error
                          << " (rel_error " << r.rel_error << ", unwritten " << r.unwritten << ")";
        EXPECT_EQ(r.unwritten, 0);
      }
}

std::vector<std::string> all_names() {
  std::vector<std::string> n;
  for (const auto& v : kernels::variants()) n.push_back(v.name);
  return n;
}

INSTANTIATE_TEST_SUITE_P(Kernels, EveryVariant, ::testing::ValuesIn(all_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
