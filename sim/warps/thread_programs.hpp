// The thread-level programs of tilesim's CUDA kernels (kernels/*.cu), inside sim/warps (not part
// of sim.hpp): each walks its kernel's own index arithmetic, warp by warp and instruction by
// instruction, and tallies every global and shared-memory request it issues (warp_access.cpp
// picks the program for a variant and memoises the counts per tile pattern).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "sim/program/launch_order.hpp"
#include "sim/warps/warp_access.hpp"

namespace tilesim::sim::thread_programs {

// Gathers one warp's lane addresses for one instruction, then counts it. `bytes` is what each
// lane moves (4: ld.shared.b32; 16: a float4 load): shared memory serves wide requests in phases.
// Lanes are added in lane order, so a wide request's phases group the right lanes.
class Request {
 public:
  explicit Request(int bytes = 4) : m_bytes(bytes) {}
  void add(std::uint64_t address) { m_addr[m_n++] = address; }
  std::span<const std::uint64_t> lanes() const { return {m_addr.data(), static_cast<size_t>(m_n)}; }
  bool empty() const { return m_n == 0; }
  int bytes() const { return m_bytes; }

 private:
  std::array<std::uint64_t, kWarpSize> m_addr{};
  int m_n = 0;
  int m_bytes;
};

struct Tally {
  WarpAccessCounters* c;
  int elem;  // global element bytes
  void global_ld(const Request& r) {
    if (r.empty()) return;
    ++c->global_ld_requests;
    c->global_ld_sectors += sectors_of_request(r.lanes(), elem);
  }
  void global_st(const Request& r) {
    if (r.empty()) return;
    ++c->global_st_requests;
    c->global_st_sectors += sectors_of_request(r.lanes(), elem);
  }
  void shared_ld(const Request& r) {
    if (r.empty()) return;
    ++c->shared_ld_requests;
    c->shared_ld_wavefronts += wavefronts_of_request(r.lanes(), r.bytes());
  }
  void shared_st(const Request& r) {
    if (r.empty()) return;
    ++c->shared_st_requests;
    c->shared_st_wavefronts += wavefronts_of_request(r.lanes(), r.bytes());
  }
};

// Context of one program: its tile origin and the matrices' byte addresses.
struct Program {
  const Problem& p;
  TileCoord t;
  int threads;
};

// copy_tiled (transpose = false) / transpose_naive (true).
void run_elementwise(const Program& g, bool transpose, Tally& tally);
// transpose_smem_tiled (padded = false) / transpose_smem_padded (true).
void run_transpose_smem(const Program& g, bool padded, Tally& tally);
// matmul_smem_tiled.
void run_matmul_smem(const Program& g, Tally& tally);
// matmul_fma_b_rowmajor / _bt_conflicting / _bt_padded.
void run_matmul_fma(const Program& g, ThreadVariant v, Tally& tally);

}  // namespace tilesim::sim::thread_programs
