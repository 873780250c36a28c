// The FMA dot's shared reads (sim/compiler/fma_dot_reads.hpp).
#include "sim/compiler/fma_dot_reads.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <vector>

namespace tilesim::sim {
namespace {

constexpr int kBanks = 32;  // shared memory: 32 banks of 4 bytes
constexpr int kWarpLanes = 32;

// Wavefronts of one shared-memory load of `bytes` a lane at the `addresses` of the lanes served
// together: lanes reading the same word share it, distinct words in one bank are served one per
// wavefront, and a wavefront moves at most 128 bytes.
double shared_read_wavefronts(const std::vector<std::int64_t>& addresses, int bytes) {
  std::array<std::set<std::int64_t>, kBanks> words;
  std::set<std::int64_t> distinct;
  for (const std::int64_t a : addresses)
    for (int b = 0; b < bytes; b += 4) {
      words[static_cast<std::size_t>((a + b) / 4 % kBanks)].insert((a + b) / 4);
      distinct.insert((a + b) / 4);
    }
  std::size_t worst = 1;
  for (const auto& w : words) worst = std::max(worst, w.size());
  return std::max(static_cast<double>(worst),
                  std::ceil(static_cast<double>(distinct.size()) * 4 / (kBanks * 4)));
}

// The same, pass by pass. Compute capability 7.x (Machine::smem_wide_loads_in_passes) serves
// 16-byte loads 8 lanes a pass (16 where every lane pair l, l ^ 1 or l, l ^ 2 reads one address)
// and 8-byte loads 16 lanes a pass; sm_80 and later serve a 16-byte load half a warp a pass (an
// LDS.128 whose 32 lanes read the same 16 bytes takes 2 wavefronts, ncu's ideal 2 too: H200
// source counters, assets/measured/ncu_fma_reads_source_h200.csv) and narrower loads whole.
// Each pass has its own wavefronts. `conflict_free`: each pass's distinct bytes over 128 a
// wavefront, without bank conflicts.
double wide_read_wavefronts(const std::vector<std::int64_t>& addresses, int bytes, bool in_passes,
                            bool conflict_free) {
  const auto one = [&](const std::vector<std::int64_t>& lanes) {
    if (!conflict_free) return shared_read_wavefronts(lanes, bytes);
    const std::set<std::int64_t> d(lanes.begin(), lanes.end());
    return std::max(1.0, std::ceil(static_cast<double>(d.size()) * bytes / (kBanks * 4)));
  };
  if (bytes <= 4 || (!in_passes && bytes < 16)) return one(addresses);
  std::size_t per_pass = in_passes ? static_cast<std::size_t>(kBanks * 4 / bytes) : kWarpLanes / 2;
  const auto paired = [&](std::size_t mask) {
    for (std::size_t l = 0; l < addresses.size(); ++l)
      if (addresses[l] != addresses[l ^ mask]) return false;
    return true;
  };
  if (in_passes && bytes == 16 && (paired(1) || paired(2))) per_pass *= 2;
  double total = 0;
  for (std::size_t first = 0; first < addresses.size(); first += per_pass) {
    const auto last = std::min(addresses.size(), first + per_pass);
    total += one(std::vector<std::int64_t>(addresses.begin() + static_cast<std::ptrdiff_t>(first),
                                           addresses.begin() + static_cast<std::ptrdiff_t>(last)));
  }
  return total;
}

}  // namespace

// The FMA dot's reads (FmaDotReads): the micro-tile from Triton's accumulator layout
// (sizePerThread [4, 4], threadsPerWarp [32 / lanes_n, lanes_n], warpsPerCTA [num_warps, 1] in
// every FMA configuration measured), each operand's loads and the wavefronts of one of them.
FmaDotReads fma_dot_reads(const Problem& p, bool b_k_major, bool wide_loads_in_passes) {
  constexpr int kMicro = 4;  // sizePerThread along each dimension
  const std::int64_t bm = p.block_m(), bn = p.block_n(), bk = p.block_k();
  const int warps = p.num_warps();
  FmaDotReads f;
  f.b_k_major = b_k_major;
  f.lanes_n = static_cast<int>(std::clamp<std::int64_t>(bn / kMicro, 1, kWarpLanes));
  f.lanes_m = kWarpLanes / f.lanes_n;
  const std::int64_t span_m = std::int64_t{kMicro} * f.lanes_m * warps;
  const std::int64_t span_n = std::int64_t{kMicro} * f.lanes_n;
  f.rows_per_thread = static_cast<int>(kMicro * std::max<std::int64_t>(1, bm / span_m));
  f.cols_per_thread = static_cast<int>(kMicro * std::max<std::int64_t>(1, bn / span_n));
  const std::int64_t vec = std::min<std::int64_t>(kMicro, bk);  // floats a 16-byte load
  const int bytes = static_cast<int>(vec * 4);
  // One load of each kind, at k = 0 and the thread's first row / column (the others shift
  // every lane's address alike): lane l holds rows 4 (l / lanes_n) + i, columns 4 (l % lanes_n) +
  // j.
  std::vector<std::int64_t> a_addr, b_addr;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    const std::int64_t row =
        std::int64_t{kMicro} * (lane / f.lanes_n) % std::max<std::int64_t>(1, bm);
    const std::int64_t col =
        std::int64_t{kMicro} * (lane % f.lanes_n) % std::max<std::int64_t>(1, bn);
    a_addr.push_back(row * bk * 4);            // A[row, 0:4], K-contiguous rows of bk
    b_addr.push_back(b_k_major ? col * bk * 4  // B[0:4, col], K-contiguous columns
                               : col * 4);     // B[0, col:col+4], rows of bn
  }
  f.a_loads = static_cast<double>(f.rows_per_thread) * cdiv(bk, vec);
  f.b_loads = b_k_major ? static_cast<double>(f.cols_per_thread) * cdiv(bk, vec)
                        : static_cast<double>(bk) * cdiv(f.cols_per_thread, vec);
  const auto wf = [&](const std::vector<std::int64_t>& addr, bool conflict_free) {
    return wide_read_wavefronts(addr, bytes, wide_loads_in_passes, conflict_free);
  };
  f.a_wavefronts = f.a_loads * wf(a_addr, false);
  f.b_wavefronts = f.b_loads * wf(b_addr, false);
  // Without conflicts each load (each pass) takes its distinct bytes over 128 a wavefront.
  f.conflict_free_wavefronts = f.a_loads * wf(a_addr, true) + f.b_loads * wf(b_addr, true);
  return f;
}

}  // namespace tilesim::sim
