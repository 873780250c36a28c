// The plain C++ API without a GPU: the variant list and the "not built"/"no device" answers.
#include <gtest/gtest.h>

#include <set>

#include "kernels/kernels.hpp"

using namespace tilesim;

TEST(VariantList, HasEveryRungOfTheIssueWithUniqueNames) {
  std::set<std::string> names;
  for (const auto& v : kernels::variants()) EXPECT_TRUE(names.insert(v.name).second) << v.name;
  for (const char* n :
       {"copy_tiled", "copy_vectorized", "copy_memcpy_d2d", "transpose_naive",
        "transpose_smem_tiled", "transpose_smem_padded", "matmul_naive", "matmul_smem_tiled",
        "matmul_smem_tiled_b_transposed", "matmul_fma_b_rowmajor", "matmul_fma_bt_conflicting",
        "matmul_fma_bt_padded", "matmul_register_blocked", "matmul_mma_sync", "matmul_wgmma_tma",
        "cublas_sgemm", "cublas_tf32", "cublas_gemmex"})
    EXPECT_TRUE(names.count(n)) << n;
}

TEST(VariantList, EveryRungNamesABaselineForEachDtype) {
  for (const auto& v : kernels::variants()) {
    if (v.kind == kernels::VariantKind::baseline && v.name != "cublas_tf32") continue;
    for (auto d : v.dtypes) {
      const std::string b = kernels::baseline_for(v, d);
      ASSERT_NE(kernels::find_variant(b), nullptr) << v.name << " -> '" << b << "'";
    }
  }
}

TEST(RunWithoutDevice, FailsWithAReasonInsteadOfThrowing) {
  if (kernels::query_device().available) GTEST_SKIP() << "a device is present";
  const auto r = kernels::run(sim::Problem(sim::ProblemSpec{}), "matmul_smem_tiled");
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.error.empty());
}

TEST(RunUnknownVariant, SaysSo) {
  const auto r = kernels::run(sim::Problem(sim::ProblemSpec{}), "matmul_fastest");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("unknown variant"), std::string::npos);
}
