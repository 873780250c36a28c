// The kernels' thread programs (see thread_programs.hpp): each loop mirrors its .cu file's index
// formulas, so the counts are the kernel's, request by request.
#include "sim/warps/thread_programs.hpp"

#include <algorithm>

namespace tilesim::sim::thread_programs {
namespace {

int log2i(int v) {
  int s = 0;
  while ((1 << s) < v) ++s;
  return s;
}

}  // namespace

// copy_tiled / transpose_naive: for (i = t; i < BM*BN; i += T) { row = i >> log2 BN, col = i & ..;
// if (row < M && col < N) out[...] = in[row * N + col]; }
void run_elementwise(const Program& g, bool transpose, Tally& tally) {
  const Problem& p = g.p;
  const int bm = p.block_m(), bn = p.block_n(), bn_shift = log2i(bn);
  const int e = p.elem_bytes();
  const std::uint64_t in_base = p.base_address(Operand::a), out_base = p.base_address(Operand::c);
  const std::int64_t row0 = g.t.pid_m * bm, col0 = g.t.pid_n * bn, M = p.m(), N = p.n();
  const int count = bm * bn;
  for (int warp0 = 0; warp0 < g.threads; warp0 += kWarpSize)
    for (int base = warp0; base < count; base += g.threads) {
      Request ld, st;
      for (int lane = 0; lane < kWarpSize && base + lane < count && warp0 + lane < g.threads;
           ++lane) {
        const int i = base + lane;
        const std::int64_t row = row0 + (i >> bn_shift), col = col0 + (i & (bn - 1));
        if (row >= M || col >= N) continue;
        ld.add(in_base + static_cast<std::uint64_t>(row * N + col) * e);
        st.add(out_base +
               static_cast<std::uint64_t>(transpose ? col * M + row : row * N + col) * e);
      }
      tally.global_ld(ld);
      tally.global_st(st);
    }
}

// transpose_smem_*: load phase writes tile[r * ld + c] (c fastest), store phase reads
// tile[r * ld + c] with r fastest; both under the in-range guard.
void run_transpose_smem(const Program& g, bool padded, Tally& tally) {
  const Problem& p = g.p;
  const int bm = p.block_m(), bn = p.block_n(), bm_shift = log2i(bm), bn_shift = log2i(bn);
  const int e = p.elem_bytes();
  const int ld_elems = bn + (padded ? 4 / e : 0);
  const std::uint64_t in_base = p.base_address(Operand::a), out_base = p.base_address(Operand::c);
  const std::int64_t row0 = g.t.pid_m * bm, col0 = g.t.pid_n * bn, M = p.m(), N = p.n();
  const int count = bm * bn;
  for (int phase = 0; phase < 2; ++phase)
    for (int warp0 = 0; warp0 < g.threads; warp0 += kWarpSize)
      for (int base = warp0; base < count; base += g.threads) {
        Request global, shared;
        for (int lane = 0; lane < kWarpSize && base + lane < count && warp0 + lane < g.threads;
             ++lane) {
          const int i = base + lane;
          const int r = phase == 0 ? i >> bn_shift : i & (bm - 1);
          const int c = phase == 0 ? i & (bn - 1) : i >> bm_shift;
          const std::int64_t row = row0 + r, col = col0 + c;
          if (row >= M || col >= N) continue;
          shared.add(static_cast<std::uint64_t>(r * ld_elems + c) * e);
          global.add(phase == 0 ? in_base + static_cast<std::uint64_t>(row * N + col) * e
                                : out_base + static_cast<std::uint64_t>(col * M + row) * e);
        }
        if (phase == 0) {
          tally.global_ld(global);
          tally.shared_st(shared);
        } else {
          tally.shared_ld(shared);
          tally.global_st(global);
        }
      }
}

// matmul_smem_tiled: per K step, As (BM, BK) and Bs (BK, BN) of floats are filled by threads
// walking i (B^T: walking K first, so the shared store index jumps by BN), then each thread
// accumulates its outputs idx = t + o*T reading As[r*BK + kk] and Bs[kk*BN + c] for kk < BK.
void run_matmul_smem(const Program& g, Tally& tally) {
  const Problem& p = g.p;
  const int bm = p.block_m(), bn = p.block_n(), bk = p.block_k();
  const int bn_shift = log2i(bn), bk_shift = log2i(bk);
  const int e = p.elem_bytes();
  const bool bt = p.spec().b_layout == BLayout::transposed;
  const std::uint64_t a_base = p.base_address(Operand::a), b_base = p.base_address(Operand::b),
                      c_base = p.base_address(Operand::c);
  const std::int64_t row0 = g.t.pid_m * bm, col0 = g.t.pid_n * bn, M = p.m(), N = p.n(), K = p.k();
  const std::uint64_t bs_base = static_cast<std::uint64_t>(bm) * bk * 4;
  const int T = g.threads;
  const int outputs = (bm * bn + T - 1) / T;
  for (std::int64_t k0 = 0; k0 < K; k0 += bk) {
    for (int warp0 = 0; warp0 < T; warp0 += kWarpSize) {
      for (int base = warp0; base < bm * bk; base += T) {  // A tile
        Request gl, sh;
        for (int lane = 0; lane < kWarpSize && base + lane < bm * bk; ++lane) {
          const int i = base + lane;
          const std::int64_t row = row0 + (i >> bk_shift), kk = k0 + (i & (bk - 1));
          sh.add(static_cast<std::uint64_t>(i) * 4);
          if (row < M && kk < K) gl.add(a_base + static_cast<std::uint64_t>(row * K + kk) * e);
        }
        tally.global_ld(gl);
        tally.shared_st(sh);
      }
      for (int base = warp0; base < bk * bn; base += T) {  // B tile
        Request gl, sh;
        for (int lane = 0; lane < kWarpSize && base + lane < bk * bn; ++lane) {
          const int i = base + lane;
          const int kl = bt ? (i & (bk - 1)) : (i >> bn_shift);
          const int cl = bt ? (i >> bk_shift) : (i & (bn - 1));
          const std::int64_t kk = k0 + kl, col = col0 + cl;
          sh.add(bs_base + static_cast<std::uint64_t>(kl * bn + cl) * 4);
          if (kk < K && col < N)
            gl.add(b_base + static_cast<std::uint64_t>(bt ? col * K + kk : kk * N + col) * e);
        }
        tally.global_ld(gl);
        tally.shared_st(sh);
      }
      for (int o = 0; o < outputs; ++o) {  // inner products: two shared loads per kk
        const int first = warp0 + o * T;
        if (first >= bm * bn) break;
        for (int kk = 0; kk < bk; ++kk) {
          Request la, lb;
          for (int lane = 0; lane < kWarpSize && warp0 + lane < T; ++lane) {
            const int idx = first + lane;
            if (idx >= bm * bn) break;
            const int r = idx >> bn_shift, c = idx & (bn - 1);
            la.add(static_cast<std::uint64_t>(r * bk + kk) * 4);
            lb.add(bs_base + static_cast<std::uint64_t>(kk * bn + c) * 4);
          }
          tally.shared_ld(la);
          tally.shared_ld(lb);
        }
      }
    }
  }
  for (int warp0 = 0; warp0 < T; warp0 += kWarpSize)  // C store
    for (int o = 0; o < outputs; ++o) {
      Request st;
      for (int lane = 0; lane < kWarpSize && warp0 + lane < T; ++lane) {
        const int idx = warp0 + lane + o * T;
        if (idx >= bm * bn) break;
        const std::int64_t row = row0 + (idx >> bn_shift), col = col0 + (idx & (bn - 1));
        if (row < M && col < N) st.add(c_base + static_cast<std::uint64_t>(row * N + col) * e);
      }
      tally.global_st(st);
    }
}

// matmul_fma_b_layout.cu: 256 threads over a 64 x 64 tile of C, thread t = (ty, tx) = (t / 16,
// t % 16) owning rows ty + 16 i and columns tx + 16 j (i, j < 4). Per K step of 32 each thread
// loads rows r + u * step (u < 8) at column c of A into As (64, 33) and of B or B^T into Bs (every
// lane stores, zeros past the edges; only in-range lanes load), then for each kk reads
// As[(ty + 16 i) * 33 + kk] and Bs at b_word(kk, tx + 16 j). Bs follows As, whose 8,448 bytes are
// 66 rows of 128: the banks are the same whichever the compiler places first.
void run_matmul_fma(const Program& g, ThreadVariant v, Tally& tally) {
  const Problem& p = g.p;
  constexpr int bm = kFmaBlockM, bn = kFmaBlockN, bk = kFmaBlockK, T = kFmaThreads;
  constexpr int a_ld = bk + 1, tx_count = 16, ty_count = T / tx_count;
  constexpr int outputs_m = bm / ty_count, outputs_n = bn / tx_count;
  const bool bt = v != ThreadVariant::matmul_fma_b_rowmajor;
  const int b_ld = !bt ? bn : v == ThreadVariant::matmul_fma_bt_conflicting ? bk : bk + 1;
  const auto b_word = [&](int kk, int nn) { return bt ? nn * b_ld + kk : kk * b_ld + nn; };
  // ptxas merges a thread's B reads of kk .. kk + 3 (the unrolled kk loop, same n) into one
  // LDS.128 where they are contiguous and 16-byte aligned: Bs (BLOCK_N, BLOCK_K) with its pitch of
  // 32 words, kk % 4 == 0 (Bs starts 16-byte aligned: 8,448 bytes in). The padded pitch (33) and
  // row-major Bs (the 4 n are 16 apart) stay LDS.32, as do the A reads (pitch 33). Checked with
  // Nsight Compute at 2048^3 (H100 and H200): 83,886,080 shared-load instructions = 67,108,864 A
  // + 16,777,216 B, and 603,979,776 wavefronts = A's + 32 per B: 4 phases of 8 lanes, each 8
  // distinct n in the same 4 banks.
  constexpr int kMerged = 4;
  const bool b_merged = bt && b_ld % kMerged == 0;
  const int b_cols = bt ? bk : bn;  // the contiguous axis of the B tile in global memory
  const int e = p.elem_bytes();
  const std::uint64_t a_base = p.base_address(Operand::a), b_base = p.base_address(Operand::b),
                      c_base = p.base_address(Operand::c);
  const std::uint64_t bs_base = std::uint64_t{bm} * a_ld * 4;
  const std::int64_t row0 = g.t.pid_m * bm, col0 = g.t.pid_n * bn, M = p.m(), N = p.n(), K = p.k();
  const int rows = static_cast<int>(std::min<std::int64_t>(M - row0, bm));
  const int cols = static_cast<int>(std::min<std::int64_t>(N - col0, bn));
  const auto addr = [](std::uint64_t base, std::int64_t element, int bytes) {
    return base + static_cast<std::uint64_t>(element) * bytes;
  };
  for (std::int64_t k0 = 0; k0 < K; k0 += bk) {
    const int k_left = static_cast<int>(std::min<std::int64_t>(K - k0, bk));
    for (int warp0 = 0; warp0 < T; warp0 += kWarpSize) {
      for (int u = 0; u < bm * bk / T; ++u) {  // A (M, K) -> As
        Request gl, sh;
        for (int lane = 0; lane < kWarpSize; ++lane) {
          const int t = warp0 + lane, r = t / bk + u * (T / bk), c = t % bk;
          sh.add(static_cast<std::uint64_t>(r * a_ld + c) * 4);
          if (r < rows && c < k_left) gl.add(addr(a_base, (row0 + r) * K + k0 + c, e));
        }
        tally.global_ld(gl);
        tally.shared_st(sh);
      }
      for (int u = 0; u < bn * bk / T; ++u) {  // B (K, N) or B^T (N, K) -> Bs
        Request gl, sh;
        for (int lane = 0; lane < kWarpSize; ++lane) {
          const int t = warp0 + lane, r = t / b_cols + u * (T / b_cols), c = t % b_cols;
          const int kk = bt ? c : r, nn = bt ? r : c;
          sh.add(bs_base + static_cast<std::uint64_t>(b_word(kk, nn)) * 4);
          if (kk < k_left && nn < cols)
            gl.add(addr(b_base, bt ? (col0 + nn) * K + k0 + kk : (k0 + kk) * N + col0 + nn, e));
        }
        tally.global_ld(gl);
        tally.shared_st(sh);
      }
      for (int kk = 0; kk < bk; ++kk) {  // the inner product: 4 A and 4 B loads per kk
        for (int i = 0; i < outputs_m; ++i) {
          Request la;
          for (int lane = 0; lane < kWarpSize; ++lane) {
            const int ty = (warp0 + lane) / tx_count;
            la.add(static_cast<std::uint64_t>((ty + i * ty_count) * a_ld + kk) * 4);
          }
          tally.shared_ld(la);
        }
        if (b_merged && kk % kMerged != 0) continue;  // read by the LDS.128 at kk - kk % 4
        for (int j = 0; j < outputs_n; ++j) {
          Request lb(b_merged ? 4 * kMerged : 4);
          for (int lane = 0; lane < kWarpSize; ++lane) {
            const int tx = (warp0 + lane) % tx_count;
            lb.add(bs_base + static_cast<std::uint64_t>(b_word(kk, tx + j * tx_count)) * 4);
          }
          tally.shared_ld(lb);
        }
      }
    }
  }
  for (int warp0 = 0; warp0 < T; warp0 += kWarpSize)  // C, from registers
    for (int i = 0; i < outputs_m; ++i)
      for (int j = 0; j < outputs_n; ++j) {
        Request st;
        for (int lane = 0; lane < kWarpSize; ++lane) {
          const int t = warp0 + lane;
          const std::int64_t row = row0 + t / tx_count + i * ty_count,
                             col = col0 + t % tx_count + j * tx_count;
          if (row < M && col < N) st.add(addr(c_base, row * N + col, e));
        }
        tally.global_st(st);
      }
}

}  // namespace tilesim::sim::thread_programs
