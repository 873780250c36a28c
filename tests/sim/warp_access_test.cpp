// Warp access model: bank conflicts of the transpose tiles and sectors per request, by hand.
#include "sim/warps/warp_access.hpp"

#include <gtest/gtest.h>

#include <span>
#include <stdexcept>
#include <vector>

using namespace tilesim::sim;

namespace {
Problem transpose32(std::int64_t m, std::int64_t n, DType dt = DType::fp32) {
  ProblemSpec s;
  s.kernel = Kernel::transpose;
  s.m = m;
  s.n = n;
  s.block_m = s.block_n = 32;
  s.dtype = dt;
  s.order = LaunchOrder::row_major;
  return Problem(s);
}
}  // namespace

TEST(SharedBanks, ThirtyTwoLanesInOneBankNeed32Wavefronts) {
  std::vector<std::uint64_t> column;
  for (int lane = 0; lane < 32; ++lane) column.push_back(lane * 32 * 4);  // 32 x 32 floats
  EXPECT_EQ(wavefronts_of_request(column), 32);
  std::vector<std::uint64_t> padded;
  for (int lane = 0; lane < 32; ++lane) padded.push_back(lane * 33 * 4);  // 32 x 33 floats
  EXPECT_EQ(wavefronts_of_request(padded), 1);
  const std::vector<std::uint64_t> broadcast(32, 64);  // one word read by every lane
  EXPECT_EQ(wavefronts_of_request(broadcast), 1);
}

TEST(SharedBanks, A128BitRequestIsServedInFourPhasesOfEightLanes) {
  // 32 lanes reading consecutive float4s: each phase of 8 lanes covers 32 consecutive words, one
  // in every bank: 4 wavefronts (512 bytes at 128 a wavefront), the fewest a 16-byte load takes.
  std::vector<std::uint64_t> consecutive;
  for (int lane = 0; lane < 32; ++lane) consecutive.push_back(lane * 16);
  EXPECT_EQ(wavefronts_of_request(consecutive, 16), 4);
  // Seed 003's B^T tile (rows of 32 words): lane reads 4 words of row n = lane % 16 at column 4.
  // Each phase's 8 lanes hold 8 rows in the same 4 banks (4..7): 8 wavefronts a phase, 32 in all.
  // Lanes 16..23 repeat lanes 0..7's words, but in another phase: no broadcast across phases.
  std::vector<std::uint64_t> column;
  for (int lane = 0; lane < 32; ++lane) column.push_back((lane % 16 * 32 + 4) * 4);
  EXPECT_EQ(wavefronts_of_request(column, 16), 4 * 8);
  // Within a phase, lanes reading the same 16 bytes share them: one wavefront a phase.
  const std::vector<std::uint64_t> same(32, 256);
  EXPECT_EQ(wavefronts_of_request(same, 16), 4);
  // Fewer lanes, fewer phases: 8 lanes of float4 are one phase.
  EXPECT_EQ(wavefronts_of_request(std::span(consecutive).first(8), 16), 1);
}

TEST(SharedBanks, A64BitRequestIsServedInTwoPhasesOfSixteenLanes) {
  std::vector<std::uint64_t> consecutive, two_rows;
  for (int lane = 0; lane < 32; ++lane) {
    consecutive.push_back(lane * 8);  // 16 lanes x 2 words = every bank once, per phase
    two_rows.push_back(lane % 2 * 32 * 4 + lane / 2 % 8 * 8);  // per phase: 2 rows of 16 words
  }
  EXPECT_EQ(wavefronts_of_request(consecutive, 8), 2);
  EXPECT_EQ(wavefronts_of_request(two_rows, 8), 2 * 2);
  // Read as 4-byte words, the same addresses are one phase of 32 words 2 apart: 2 a bank.
  EXPECT_EQ(wavefronts_of_request(consecutive, 4), 2);
  EXPECT_THROW(wavefronts_of_request(consecutive, 12), std::invalid_argument);
}

TEST(Coalescing, ContiguousFloatsAreFourSectorsScatteredAre32) {
  std::vector<std::uint64_t> row, column;
  for (int lane = 0; lane < 32; ++lane) {
    row.push_back(lane * 4);
    column.push_back(lane * 4096);
  }
  EXPECT_EQ(sectors_of_request(row, 4), 4);
  EXPECT_EQ(sectors_of_request(column, 4), 32);
}

TEST(TransposeSmemTiled, ColumnReadsOf32By32FloatsConflict31TimesPerRequest) {
  // One 32x32 program: 1024 elements, 256 threads -> 32 warp requests per phase. Stores into the
  // tile run along rows (no conflict); reads run down columns: 32 words 32 apart, one bank,
  // 32 wavefronts = 31 conflicts per request -> 32 * 31 = 992 per program.
  const Problem p = transpose32(64, 64);
  const auto c = warp_access(p, ThreadVariant::transpose_smem_tiled);
  EXPECT_EQ(c.shared_st_requests, 4 * 32);
  EXPECT_EQ(c.shared_st_conflicts(), 0);
  EXPECT_EQ(c.shared_ld_requests, 4 * 32);
  EXPECT_EQ(c.shared_ld_conflicts(), 4 * 992);
}

TEST(TransposeSmemPadded, OneWordOfPaddingRemovesEveryConflict) {
  for (auto dt : {DType::fp32, DType::fp16}) {
    const auto c = warp_access(transpose32(96, 64, dt), ThreadVariant::transpose_smem_padded);
    EXPECT_EQ(c.shared_ld_conflicts(), 0);
    EXPECT_EQ(c.shared_st_conflicts(), 0);
  }
}

TEST(TransposeSmemTiled, HalfPrecisionColumnReadsConflict15Times) {
  // fp16: lane l reads byte (l*32 + c)*2, word l*16 + c/2: banks c/2 and 16 + c/2 only, 16 words
  // each -> 16 wavefronts, 15 conflicts per request.
  const auto c = warp_access(transpose32(32, 32, DType::fp16), ThreadVariant::transpose_smem_tiled);
  EXPECT_EQ(c.shared_ld_conflicts(), 32 * 15);
}

TEST(TransposeNaive, WritesTouch32SectorsPerRequestReadsFour) {
  const auto c = warp_access(transpose32(1024, 1024), ThreadVariant::transpose_naive);
  EXPECT_DOUBLE_EQ(c.ld_sectors_per_request(), 4.0);
  EXPECT_DOUBLE_EQ(c.st_sectors_per_request(), 32.0);
  const auto t = warp_access(transpose32(1024, 1024), ThreadVariant::transpose_smem_padded);
  EXPECT_DOUBLE_EQ(t.st_sectors_per_request(), 4.0);
}

TEST(WarpAccess, MemoisedWholeKernelEqualsSumOverPrograms) {
  const Problem p = transpose32(100, 70);  // boundary tiles on both edges, unaligned rows
  WarpAccessCounters sum;
  for (std::int64_t pid = 0; pid < p.programs(); ++pid)
    sum += warp_access_program(p, ThreadVariant::transpose_smem_tiled, pid);
  EXPECT_EQ(warp_access(p, ThreadVariant::transpose_smem_tiled), sum);
  ProblemSpec s;
  s.m = 100;
  s.n = 70;
  s.k = 45;
  s.block_m = s.block_n = s.block_k = 32;
  s.b_layout = BLayout::transposed;
  const Problem mm(s);
  WarpAccessCounters msum;
  for (std::int64_t pid = 0; pid < mm.programs(); ++pid)
    msum += warp_access_program(mm, ThreadVariant::matmul_smem_tiled, pid);
  EXPECT_EQ(warp_access(mm, ThreadVariant::matmul_smem_tiled), msum);
}

TEST(MatmulSmemTiled, TransposedBStoresConflictRowMajorBDoesNot) {
  ProblemSpec s;
  s.m = s.n = s.k = 128;
  s.block_m = s.block_n = 64;
  s.block_k = 32;
  const auto row = warp_access(Problem(s), ThreadVariant::matmul_smem_tiled);
  s.b_layout = BLayout::transposed;
  const auto bt = warp_access(Problem(s), ThreadVariant::matmul_smem_tiled);
  EXPECT_EQ(row.shared_st_conflicts(), 0);
  // B^T: 32 lanes walk K (32 values) at one column: words k*64 + c, all in bank c % 32.
  EXPECT_GT(bt.shared_st_conflicts(), 0);
  EXPECT_EQ(bt.shared_ld_conflicts(), row.shared_ld_conflicts());
}

TEST(SharedBanks, BankIsTheWordModulo32AndConflictsAreWavefrontsPastTheFirst) {
  for (std::uint64_t word = 0; word < 200; ++word) {
    EXPECT_EQ(bank_of(word * 4), int(word % 32));
    EXPECT_EQ(bank_of(word * 4 + 3), int(word % 32));  // every byte of a word: one bank
  }
  EXPECT_EQ(conflicts_of_request(0), 0);  // no lane active
  EXPECT_EQ(conflicts_of_request(1), 0);
  EXPECT_EQ(conflicts_of_request(32), 31);
}

TEST(ThreadVariants, EachKernelListsItsVariantsAndEveryNameParsesBack) {
  using V = ThreadVariant;
  EXPECT_EQ(thread_variants(Kernel::copy), std::vector<V>{V::copy_tiled});
  EXPECT_EQ(
      thread_variants(Kernel::transpose),
      (std::vector<V>{V::transpose_naive, V::transpose_smem_tiled, V::transpose_smem_padded}));
  EXPECT_EQ(thread_variants(Kernel::matmul),
            (std::vector<V>{V::matmul_smem_tiled, V::matmul_fma_b_rowmajor,
                            V::matmul_fma_bt_conflicting, V::matmul_fma_bt_padded}));
  for (const auto k : {Kernel::copy, Kernel::transpose, Kernel::matmul})
    for (const V v : thread_variants(k)) {
      EXPECT_TRUE(variant_fits(v, k));
      EXPECT_EQ(parse_thread_variant(to_string(v)), v);
    }
  EXPECT_EQ(parse_thread_variant("matmul_smem_tiled_b_transposed"), V::matmul_smem_tiled);
  EXPECT_EQ(parse_thread_variant("transpose_smem_padded_vectorized"), std::nullopt);
}

namespace {
Problem matmul_fp32(std::int64_t m, std::int64_t n, std::int64_t k) {
  ProblemSpec s;
  s.m = m;
  s.n = n;
  s.k = k;
  s.block_m = s.block_n = 64;
  s.block_k = 32;
  s.dtype = DType::fp32;
  return Problem(s);
}
}  // namespace

TEST(MatmulFmaBLayout, OneProgramsBReadsConflictOnlyFromTheUnpaddedBTransposedTile) {
  // One 64x64x32 program, 8 warps, one K step: per kk each warp reads 4 A words (2 rows ty, 33
  // apart: one wavefront) and 4 B words. B^T unpadded: ptxas merges a thread's B words kk .. kk+3
  // (contiguous, 16-byte aligned) into one LDS.128, so per 4 kk a warp issues 4 B requests of 4
  // phases; in each phase 8 lanes read 8 rows n, 32 words apart, in the same 4 banks: 8
  // wavefronts a phase, 32 a request (31 conflicts). Padded and row-major stay LDS.32.
  const Problem p = matmul_fp32(64, 64, 32);
  constexpr std::int64_t warps = 8, kk = 32, a_loads = warps * kk * 4;
  constexpr std::int64_t b128_loads = warps * kk / 4 * 4;
  const auto row = warp_access(p, ThreadVariant::matmul_fma_b_rowmajor);
  const auto conflicting = warp_access(p, ThreadVariant::matmul_fma_bt_conflicting);
  const auto padded = warp_access(p, ThreadVariant::matmul_fma_bt_padded);
  EXPECT_EQ(row.shared_ld_requests, 2 * a_loads);
  EXPECT_EQ(padded.shared_ld_requests, 2 * a_loads);
  EXPECT_EQ(conflicting.shared_ld_requests, a_loads + b128_loads);
  for (const auto* c : {&row, &conflicting, &padded}) {
    EXPECT_EQ(c->shared_st_requests, warps * 16);  // 8 A and 8 B stores a warp
    EXPECT_EQ(c->shared_st_conflicts(), 0);        // every tile is stored as it is read
    EXPECT_EQ(c->global_ld_requests, warps * 16);
    EXPECT_EQ(c->ld_sectors_per_request(), 4.0);  // 32 consecutive floats: coalesced
    EXPECT_EQ(c->global_st_requests, warps * 16);
    EXPECT_EQ(c->st_sectors_per_request(), 4.0);  // two rows of 16 floats
  }
  EXPECT_EQ(row.shared_ld_conflicts(), 0);
  EXPECT_EQ(padded.shared_ld_conflicts(), 0);
  EXPECT_EQ(conflicting.shared_ld_wavefronts, a_loads + b128_loads * 32);
  EXPECT_EQ(conflicting.shared_ld_conflicts(), b128_loads * 31);
  EXPECT_EQ(conflicting.ld_conflicts_per_request(), 6.2);  // 4 x 31 over 16 A + 4 B requests
}

TEST(MatmulFmaBLayout, RunsItsOwnTileBLayoutAndDtypeWhateverTheProblemSays) {
  ProblemSpec s = matmul_fp32(2048, 2048, 2048).spec();
  const auto v = ThreadVariant::matmul_fma_bt_conflicting;
  const auto c = warp_access(Problem(s), v);
  // 32 x 32 programs, 64 K steps, 8 warps, 32 / 4 kk groups, 4 LDS.128 of 31 conflicts each:
  // 520,093,696, what Nsight Compute measures on the H100 and H200 (wavefronts - instructions:
  // 603,979,776 - 83,886,080).
  EXPECT_EQ(c.shared_ld_conflicts(), std::int64_t{32} * 32 * 64 * 8 * 8 * 4 * 31);
  EXPECT_EQ(c.shared_ld_conflicts(), 520'093'696);
  EXPECT_EQ(c.shared_ld_requests, 83'886'080);
  EXPECT_EQ(c.shared_ld_wavefronts, 603'979'776);
  s.block_m = s.block_n = 128;
  s.block_k = 16;
  s.dtype = DType::fp16;
  s.b_layout = BLayout::row_major;
  EXPECT_EQ(warp_access(Problem(s), v), c);
  EXPECT_EQ(threads_per_program(Problem(s), v), 256);
  EXPECT_EQ(model_spec(v, s).b_layout, BLayout::transposed);
  EXPECT_EQ(model_spec(ThreadVariant::matmul_fma_b_rowmajor, s).b_layout, BLayout::row_major);
  EXPECT_EQ(model_spec(ThreadVariant::matmul_smem_tiled, s), s);
}

TEST(MatmulFmaBLayout, OddSizesSumTheirProgramsAndOnlyTheUnpaddedTileConflicts) {
  for (const auto v :
       {ThreadVariant::matmul_fma_b_rowmajor, ThreadVariant::matmul_fma_bt_conflicting,
        ThreadVariant::matmul_fma_bt_padded}) {
    const Problem p(model_spec(v, matmul_fp32(130, 77, 45).spec()));
    WarpAccessCounters sum;
    for (std::int64_t pid = 0; pid < p.programs(); ++pid) sum += warp_access_program(p, v, pid);
    const auto c = warp_access(p, v);
    EXPECT_EQ(c, sum) << to_string(v);
    EXPECT_EQ(c.shared_st_conflicts(), 0) << to_string(v);
    EXPECT_EQ(c.shared_ld_conflicts() > 0, v == ThreadVariant::matmul_fma_bt_conflicting)
        << to_string(v);
  }
}
