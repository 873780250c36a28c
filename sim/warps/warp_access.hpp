// Warp-level access model: how the threads of a CUDA kernel issue a tile's loads and stores.
// Teaches coalescing (sectors per request: 4 when a warp reads 128 contiguous bytes, 32 when its
// lanes fall a row apart, as in a naive transpose's writes) and shared-memory bank conflicts
// (32 banks of 4 bytes: a 32 x 32 float tile read by column is a 32-way conflict; 32 x 33 is none).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "sim/program/problem.hpp"

namespace tilesim::sim {

inline constexpr int kWarpSize = 32;
inline constexpr int kSharedBanks = 32;  // banks of 4 bytes
inline constexpr int kSectorBytes = 32;

// The thread-level programs tilesim's CUDA kernels use (kernels/*.cu, same names). Each mirrors
// its kernel's index arithmetic exactly: threads t = 0..T-1 take elements t, t + T, ...
enum class ThreadVariant {
  copy_tiled,             // copy.cu version 1
  transpose_naive,        // transpose.cu version 1: coalesced reads, scattered writes
  transpose_smem_tiled,   // version 2: shared tile (BLOCK_M, BLOCK_N), column reads conflict
  transpose_smem_padded,  // version 3: shared tile (BLOCK_M, BLOCK_N + one 4-byte word)
  matmul_smem_tiled,      // matmul_simt.cu version 2/3 (B^T when the problem's B is transposed)
  // matmul_fma_b_layout.cu, seed 003's pair: its own 64 x 64 x 32 FP32 tile and B layout (the
  // problem's blocks, B layout and dtype do not apply), B staged as Bs (BLOCK_K, BLOCK_N), as
  // (BLOCK_N, BLOCK_K) from B^T (conflicts on the inner product's LDS.128 reads) or as (BLOCK_N,
  // BLOCK_K + 1) from B^T.
  matmul_fma_b_rowmajor,
  matmul_fma_bt_conflicting,
  matmul_fma_bt_padded,
};
std::string_view to_string(ThreadVariant v);
// A variant's name, or a kernels/ variant one of them models (matmul_smem_tiled_b_transposed).
std::optional<ThreadVariant> parse_thread_variant(std::string_view name);
// Does variant v implement kernel k?
bool variant_fits(ThreadVariant v, Kernel k);
// The variants that implement kernel k, in the order above; the first models k by default.
std::vector<ThreadVariant> thread_variants(Kernel k);

// Counts in the units Nsight Compute reports (l1tex__t_requests/sectors_pipe_lsu_mem_global_op_*,
// l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*, l1tex__data_bank_conflicts_..._op_*).
struct WarpAccessCounters {
  std::int64_t global_ld_requests = 0, global_ld_sectors = 0;
  std::int64_t global_st_requests = 0, global_st_sectors = 0;
  std::int64_t shared_ld_requests = 0, shared_ld_wavefronts = 0;
  std::int64_t shared_st_requests = 0, shared_st_wavefronts = 0;

  // A request that needs w wavefronts has w - 1 bank conflicts.
  std::int64_t shared_ld_conflicts() const { return shared_ld_wavefronts - shared_ld_requests; }
  std::int64_t shared_st_conflicts() const { return shared_st_wavefronts - shared_st_requests; }
  double ld_sectors_per_request() const;
  double st_sectors_per_request() const;
  // Bank conflicts per shared request: 0 when conflict-free, 31 when all 32 lanes hit one bank.
  double ld_conflicts_per_request() const;
  double st_conflicts_per_request() const;
  WarpAccessCounters& operator+=(const WarpAccessCounters& o);
  WarpAccessCounters operator*(std::int64_t times) const;
  bool operator==(const WarpAccessCounters&) const = default;
};

// One warp request: the byte addresses of its active lanes (at most 32), each `bytes` wide.
std::int64_t sectors_of_request(std::span<const std::uint64_t> addresses, int bytes);
// The shared-memory bank of a byte address: its 4-byte word modulo kSharedBanks.
constexpr int bank_of(std::uint64_t address) {
  return static_cast<int>(address / 4 % kSharedBanks);
}
// Shared memory: lanes reading the same 4-byte word share it (broadcast); distinct words in one
// bank are served one per wavefront. `addresses` are the active lanes' in lane order (the wide
// requests modelled here have every lane active), each moving `bytes` (1, 2, 4, 8 or 16, aligned
// to its width). A wavefront moves at most 32 words, so wide accesses go in phases of consecutive
// lanes: 64-bit in 2 phases of 16 lanes, 128-bit in 4 of 8. Returns the sum over phases of the
// most distinct words in one bank (0 if no lane): 32 lanes reading consecutive float4s take 4.
std::int64_t wavefronts_of_request(std::span<const std::uint64_t> addresses, int bytes = 4);
// Bank conflicts of one request served in `wavefronts`: every wavefront past the first.
constexpr std::int64_t conflicts_of_request(std::int64_t wavefronts) {
  return wavefronts > 1 ? wavefronts - 1 : 0;
}

// Whole kernel: every program of the problem (programs with the same pattern are computed once).
// Grids past kMaxWarpPrograms programs are refused (std::invalid_argument naming the count):
// finding the patterns walks every program.
inline constexpr std::int64_t kMaxWarpPrograms = std::int64_t{1} << 22;
WarpAccessCounters warp_access(const Problem& p, ThreadVariant v);
// One program (pid in launch order).
WarpAccessCounters warp_access_program(const Problem& p, ThreadVariant v, std::int64_t pid);
// Threads per program the kernel launches with (mirrors the kernels' launch code).
int threads_per_program(const Problem& p, ThreadVariant v);
// The problem as the model of v runs it: matmul_fma_* take their kernel's own tile, B layout
// and FP32 (as kernels::run does); every other model runs `spec` as it is.
ProblemSpec model_spec(ThreadVariant v, ProblemSpec spec);
inline constexpr int kFmaBlockM = 64, kFmaBlockN = 64, kFmaBlockK = 32, kFmaThreads = 256;

}  // namespace tilesim::sim
