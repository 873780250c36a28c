// Matmul, Hopper rung 6g (sm_90a only): 6c's persistent kernel with a stream-K tail.
// version 6g matmul_wgmma_streamk: the warpgroups, stage ring, K loop and TMA-store epilogue of
//   6c (matmul_wgmma_tma.cu: a producer warpgroup, two wgmma consumers, 128 x 256 x 64 tiles, 4
//   stages, 16 KB C panels), in a persistent grid of P CTAs (one per SM). What changes is the
//   work each CTA gets. With T tiles, the first floor(T / P) * P tiles (in launch order) are
//   "data-parallel": CTA b computes tiles b, b + P, ... whole, as 6c does. The remaining
//   T % P tiles would leave most SMs idle in a last, partial round (4096^3: 512 tiles on 132 SMs,
//   3.88 rounds: the last has 116 tiles for 132 SMs), so their K steps are pooled and cut into P
//   contiguous ranges of (almost) equal length, one per CTA ("stream-K": Osama et al., 2023). A
//   range covers the end of one tile, possibly whole tiles, and the start of another. A CTA walks
//   its range last tile first: it starts at K step 0 of the tile its range ends in, then takes
//   the end of the tile its range starts in, so at any moment all CTAs are at nearly the same K
//   step and the A and B^T slices they share are read from L2 close together in time (walking
//   the range in order staggered them by up to a tile's K steps: 89 % of cuBLAS instead of 93 %
//   at 4096^3, docs/PERFORMANCE.md Follow-up 7). A tile's contributors are the CTAs whose ranges
//   cover its K steps; the one holding its last K step (it reaches the tile at the end of its
//   range, after the others have passed it) reduces. Every other one stores its FP32
//   accumulators in a slot of a global workspace (two per CTA and consumer warpgroup: its
//   range's first and last tile) and goes on with its next tile at once; two K steps into that
//   tile, when the stores have drained under the wgmmas, it raises the tile's counter with a
//   release add. The reducer looks at the counter (acquire load) every 8 K steps from its 12th:
//   once every other contributor has raised it, it waits for its own wgmmas, adds their slots
//   into its accumulators and goes on, so the sums are read under the K loop rather than at the
//   end; if they are not all there by then, it waits for them after its K loop. A contributor
//   raises its counter before any wait of its own, and the grid is one CTA per SM (all resident),
//   so nothing waits for ever. The reducer resets the counter to 0 for the next launch and stores
//   C. With fewer tiles than SMs, every K step is pooled over all SMs (as long as each CTA gets
//   at least one); with too few K steps to give every CTA one, the schedule is 6c's.
//   The workspace (4 slots of 64 KB per CTA, a counter per tail tile and consumer warpgroup) is
//   kept per device between launches, zeroed once when it is (re)allocated; counters return to 0
//   in every launch that raises them. Launches sharing it must be ordered (one stream).
//   Measured (H100, docs/PERFORMANCE.md Follow-up 7): 94 % of cuBLAS at 4096^3 against 6c's 98 %
//   in the same process. The split costs more than the 3 % of SM time the tail leaves idle.
#include <memory>
#include <mutex>

#include "kernels/device_common.cuh"
#include "kernels/device_resources.cuh"
#include "kernels/matmul_wgmma_streamk.hpp"

#if !defined(TILESIM_NO_HOPPER)
#include "kernels/wgmma_common.cuh"
#endif

namespace tilesim::kernels::detail {

#if defined(TILESIM_NO_HOPPER)
std::string launch_matmul_wgmma_streamk(const LaunchArgs&) {
  return "built without sm_90 in CMAKE_CUDA_ARCHITECTURES: no sm_90a code for the wgmma rung";
}
#else
namespace {

constexpr int kBM = wgmma_tma::kTile.block_m, kBN = wgmma_tma::kTile.block_n,
              kBK = wgmma_tma::kTile.block_k, kS = wgmma_tma::kStages, kThreads = 384;
constexpr int kNSub = kBN / 128;  // wgmma n128 instructions per k16 step
constexpr int kStageBytesA = kBM * kBK * 2, kStageBytesB = kBN * kBK * 2;
constexpr int kCBytes = 64 * 128 * 2;  // one consumer's C panel: two (64, 64) boxes
constexpr std::size_t kSmemBytes =
    1024 + kS * (kStageBytesA + kStageBytesB) + 2 * kCBytes + 2 * kS * 8 + 16;
constexpr int kSlotFloats = 64 * kBN;  // one consumer warpgroup's accumulators (128 a thread)

// The split of the work: tiles [0, dp_tiles) whole, round-robin; the K steps of tiles
// [dp_tiles, dp_tiles + sk_tiles) pooled (sk_iters = sk_tiles * k_tiles) and cut into gridDim.x
// ranges.
struct Plan {
  int dp_tiles = 0, sk_tiles = 0;
  long long sk_iters = 0;
  float* slots = nullptr;   // (gridDim.x, 2 pieces, 2 consumers, 32 float4, 128 threads, 4)
  int* counters = nullptr;  // (sk_tiles, 2 consumers)
};

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
// First pooled K step of CTA c's range.
__device__ __forceinline__ long long range_begin(const Plan& p, int c) {
  return p.sk_iters * c / gridDim.x;
}

// The CTA whose range holds pooled K step i.
__device__ __forceinline__ int range_of(const Plan& p, long long i) {
  return static_cast<int>(((i + 1) * gridDim.x - 1) / p.sk_iters);
}

// This CTA's units of work in order: (tile, first K step, end K step). Data-parallel tiles first,
// then the tiles of its stream-K range, last tile first, so that every CTA starts its range at K
// step 0 of a tile and all CTAs walk K nearly in step (see the file's header).
struct Units {
  int next_dp;
  long long b, e, t;  // the range [b, e) and the next of its tiles
  __device__ Units(const Plan& p, int k_tiles)
      : next_dp(blockIdx.x), b(range_begin(p, blockIdx.x)), e(range_begin(p, blockIdx.x + 1)) {
    t = b >= e ? -1 : (e - 1) / k_tiles;
  }
  __device__ bool next(const Plan& p, int k_tiles, int& tile, int& kb, int& ke) {
    if (next_dp < p.dp_tiles) {
      tile = next_dp;
      kb = 0;
      ke = k_tiles;
      next_dp += gridDim.x;
      return true;
    }
    if (t < 0 || (t + 1) * k_tiles <= b) return false;
    kb = static_cast<int>(max(b - t * k_tiles, 0ll));
    ke = static_cast<int>(min(e - t * k_tiles, static_cast<long long>(k_tiles)));
    tile = p.dp_tiles + static_cast<int>(t);
    --t;
    return true;
  }
};

__device__ __forceinline__ void red_release_add(int* p, int v) {
  asm volatile("red.release.gpu.global.add.s32 [%0], %1;\n" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ int ld_acquire(const int* p) {
  int v;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];\n" : "=r"(v) : "l"(p) : "memory");
  return v;
}
#endif

template <class T, bool kTmaStore>
__global__ void __launch_bounds__(kThreads, 1)
    matmul_wgmma_streamk_kernel(const __grid_constant__ CUtensorMap map_a,
                                const __grid_constant__ CUtensorMap map_b,
                                const __grid_constant__ CUtensorMap map_c, T* __restrict__ c,
                                std::int64_t m, std::int64_t n, std::int64_t k, GridMap g,
                                Plan plan) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ unsigned char smem_raw[];
  unsigned char* base = reinterpret_cast<unsigned char*>(
      (reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) & ~std::uintptr_t{1023});
  T* as = reinterpret_cast<T*>(base);                             // (stages, BM, BK)
  T* bs = reinterpret_cast<T*>(base + kS * kStageBytesA);         // (stages, BN, BK)
  unsigned char* cs = base + kS * (kStageBytesA + kStageBytesB);  // (2, 2, 64, 64)
  auto* full = reinterpret_cast<std::uint64_t*>(cs + 2 * kCBytes);
  std::uint64_t* empty = full + kS;
  volatile int* last_flag = reinterpret_cast<volatile int*>(empty + kS);  // one per consumer

  const int wg = threadIdx.x / 128, t = threadIdx.x % 128;
  const int k_tiles = static_cast<int>((k + kBK - 1) / kBK);
  auto tile_origin = [&](int p, int& row0, int& col0) {
    std::int64_t pid_m, pid_n;
    tile_of(g, p, pid_m, pid_n);
    row0 = static_cast<int>(pid_m * kBM);
    col0 = static_cast<int>(pid_n * kBN);
  };

  if (threadIdx.x == 0) {
    for (int s = 0; s < kS; ++s) {
      mbar_init(&full[s], 1);
      mbar_init(&empty[s], 2);  // one arrival per consumer warpgroup
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  }
  __syncthreads();

  if (wg == 0) {  // producer: one thread runs the stage ring through every unit of this CTA
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
    if (t == 0) {
      int it = 0;  // K steps issued by this CTA so far, over all its units
      Units units(plan, k_tiles);
      int tile, kb, ke;
      while (units.next(plan, k_tiles, tile, kb, ke)) {
        int row0, col0;
        tile_origin(tile, row0, col0);
        for (int kt = kb; kt < ke; ++kt, ++it) {
          const int s = it % kS;
          if (it >= kS) mbar_wait(&empty[s], ((it / kS) - 1) & 1);
          mbar_expect_tx(&full[s], kStageBytesA + kStageBytesB);
          tma_load(as + s * kBM * kBK, &map_a, kt * kBK, row0, &full[s]);
          tma_load(bs + s * kBN * kBK, &map_b, kt * kBK, col0, &full[s]);
        }
      }
    }
  } else {  // consumers: warpgroup wg owns rows (wg - 1) * 64 .. + 63 of every tile
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
    const int warp = t / 32, lane = t % 32;
    unsigned char* panel = cs + (wg - 1) * kCBytes;
    int it = 0;
    int* pending =
        nullptr;  // the counter of a tile whose partial sum this CTA stored, not yet raised
    Units units(plan, k_tiles);
    int tile, kb, ke;
    while (units.next(plan, k_tiles, tile, kb, ke)) {
      int row0, col0;
      tile_origin(tile, row0, col0);
      // A stream-K tile's contributors: the CTAs first..last whose ranges cover its K steps. The
      // last one (it holds the tile's last K step) reduces; it walks this tile last in its range.
      const bool split = tile >= plan.dp_tiles && (kb > 0 || ke < k_tiles);
      const bool reducer = split && ke == k_tiles;
      const int st = tile - plan.dp_tiles;
      int* counter = split ? plan.counters + st * 2 + (wg - 1) : nullptr;
      const int first = split ? range_of(plan, static_cast<long long>(st) * k_tiles) : 0;
      const int others = split ? static_cast<int>(blockIdx.x) - first : 0;  // for the reducer
      auto slot_of = [&](int cta) {  // slot 0: the first tile of cta's range, 1: its last
        const int piece = range_begin(plan, cta) / k_tiles == st ? 0 : 1;
        return reinterpret_cast<float4*>(plan.slots) +
               ((static_cast<std::size_t>(cta) * 2 + piece) * 2 + (wg - 1)) * (kSlotFloats / 4);
      };
      // The others' partial sums into acc, once thread 0 has acquired the counter at `others`.
      auto add_others = [&](float(&acc)[kNSub][64]) {
        for (int cta = first; cta < static_cast<int>(blockIdx.x); ++cta) {
          const float4* slot = slot_of(cta);
#pragma unroll
          for (int q = 0; q < 32; ++q) {
            const int j = q / 16, e = (q % 16) * 4;
            const float4 v = __ldcg(slot + q * 128 + t);
            acc[j][e] += v.x;
            acc[j][e + 1] += v.y;
            acc[j][e + 2] += v.z;
            acc[j][e + 3] += v.w;
          }
        }
      };
      // A stored partial sum is announced a few K steps into the next unit, once its stores
      // have drained under the wgmmas (or at its last step).
      const int signal_at = pending ? min(kb + 2, ke - 1) : -1;
      bool merged = false;
      float acc[kNSub][64];
#pragma unroll
      for (int j = 0; j < kNSub; ++j)
#pragma unroll
        for (int e = 0; e < 64; ++e) acc[j][e] = 0.f;
      for (int kt = kb; kt < ke; ++kt, ++it) {
        const int s = it % kS;
        mbar_wait(&full[s], (it / kS) & 1);
        const T* a_tile = as + s * kBM * kBK + (wg - 1) * 64 * kBK;
        const T* b_tile = bs + s * kBN * kBK;
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
        for (int kk = 0; kk < kBK / 16; ++kk)
#pragma unroll
          for (int j = 0; j < kNSub; ++j)
            wgmma_m64n128k16<T>(acc[j], smem_desc(a_tile + kk * 16),
                                smem_desc(b_tile + j * 128 * kBK + kk * 16));
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
        if (t == 0 && kt > kb) mbar_arrive(&empty[(it - 1) % kS]);
        if (kt == signal_at) {  // every thread's stores to the slot, then one release add
          asm volatile("bar.sync %0, 128;\n" ::"r"(wg) : "memory");
          if (t == 0) red_release_add(pending, 1);
          pending = nullptr;
        }
        // The reducer adds the others' sums as soon as they are there, in its K loop (every 8
        // steps from the 12th, not in the last two): then nothing is left to read at the end.
        if (reducer && !merged && kt - kb >= 12 && (kt - kb) % 8 == 4 && kt < ke - 2) {
          asm volatile("bar.sync %0, 128;\n" ::"r"(wg) : "memory");  // earlier flag reads done
          if (t == 0) last_flag[wg - 1] = ld_acquire(counter) == others;
          asm volatile("bar.sync %0, 128;\n" ::"r"(wg) : "memory");
          if (last_flag[wg - 1]) {
            asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
            add_others(acc);
            merged = true;
          }
        }
      }
      asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
      // The unit's last stage (the producer is already in the next unit's loads).
      if (t == 0 && ke > kb) mbar_arrive(&empty[(it - 1) % kS]);

      if (split && !reducer) {  // this warpgroup's accumulators to its slot, announced later
        float4* slot = slot_of(blockIdx.x);
#pragma unroll
        for (int q = 0; q < 32; ++q) {
          const int j = q / 16, e = (q % 16) * 4;
          __stcg(slot + q * 128 + t,
                 make_float4(acc[j][e], acc[j][e + 1], acc[j][e + 2], acc[j][e + 3]));
        }
        pending = counter;
        continue;
      }
      if (reducer) {
        if (!merged) {  // wait for the others (they raise the counter before any wait of theirs)
          if (t == 0)
            while (ld_acquire(counter) < others) __nanosleep(32);
          asm volatile("bar.sync %0, 128;\n" ::"r"(wg) : "memory");
          add_others(acc);
        }
        if (t == 0)
          *counter = 0;  // every other contributor has raised it: ready for the next launch
      }

      // The whole tile's sum is in acc: store C (6c's epilogue).
      if constexpr (kTmaStore) {
#pragma unroll
        for (int p = 0; p < kNSub; ++p) {
          // The panel is free once the stores that last read it have done so.
          if (t == 0) asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
          asm volatile("bar.sync %0, 128;\n" ::"r"(wg) : "memory");
#pragma unroll
          for (int q = 0; q < 16; ++q)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
              const int r = warp * 16 + lane / 4 + h * 8, cb = q / 8;
              const T v0 = from_float<T>(acc[p][4 * q + 2 * h]),
                      v1 = from_float<T>(acc[p][4 * q + 2 * h + 1]);
              const unsigned pair =
                  *reinterpret_cast<const unsigned short*>(&v0) |
                  (static_cast<unsigned>(*reinterpret_cast<const unsigned short*>(&v1)) << 16);
              *reinterpret_cast<unsigned*>(panel + cb * 8192 + r * 128 +
                                           (((q % 8) ^ (r % 8)) << 4) + (lane % 4) * 4) = pair;
            }
          asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
          asm volatile("bar.sync %0, 128;\n" ::"r"(wg) : "memory");
          if (t == 0) {
#pragma unroll
            for (int cb = 0; cb < 2; ++cb)
              tma_store(&map_c, col0 + p * 128 + cb * 64, row0 + (wg - 1) * 64, panel + cb * 8192);
            asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
          }
        }
      } else {
        const bool pairs = n % 2 == 0;
#pragma unroll
        for (int j = 0; j < kNSub; ++j)
#pragma unroll
          for (int q = 0; q < 16; ++q)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
              const std::int64_t row = row0 + (wg - 1) * 64 + warp * 16 + lane / 4 + h * 8;
              const std::int64_t col = col0 + j * 128 + q * 8 + (lane % 4) * 2;
              if (row >= m) continue;
              const T v0 = from_float<T>(acc[j][4 * q + 2 * h]),
                      v1 = from_float<T>(acc[j][4 * q + 2 * h + 1]);
              T* p = c + row * n + col;
              if (pairs && col + 1 < n) {
                const unsigned short lo = *reinterpret_cast<const unsigned short*>(&v0);
                const unsigned short hi = *reinterpret_cast<const unsigned short*>(&v1);
                *reinterpret_cast<unsigned*>(p) = lo | (static_cast<unsigned>(hi) << 16);
              } else {
                if (col < n) p[0] = v0;
                if (col + 1 < n) p[1] = v1;
              }
            }
      }
    }
    if (pending) {  // a range that ends in the tile it started in: announce its sum now
      asm volatile("bar.sync %0, 128;\n" ::"r"(wg) : "memory");
      if (t == 0) red_release_add(pending, 1);
    }
    if constexpr (kTmaStore)
      if (t == 0) asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
  }
#endif
}

// The workspace of one device, kept between launches and grown when a launch needs more: the
// slots (never read before they are written in the same launch) and the counters (zeroed here
// once; each launch leaves them at 0).
class Workspace {
 public:
  // Slots for `ctas` CTAs and counters for `sk_tiles` tiles, ready on `stream`.
  void reserve(int ctas, int sk_tiles, cudaStream_t stream) {
    const std::size_t slot_bytes = static_cast<std::size_t>(ctas) * 4 * kSlotFloats * 4;
    const std::size_t counter_bytes = static_cast<std::size_t>(sk_tiles) * 2 * sizeof(int);
    if (!m_slots || m_slots->bytes < slot_bytes) {
      m_slots.reset();
      m_slots = std::make_unique<DeviceBuffer>(slot_bytes);
    }
    if (!m_counters || m_counters->bytes < counter_bytes) {
      m_counters.reset();
      m_counters = std::make_unique<DeviceBuffer>(counter_bytes);
      TILESIM_CUDA_CHECK(cudaMemsetAsync(m_counters->p, 0, m_counters->bytes, stream));
    }
  }
  float* slots() const { return static_cast<float*>(m_slots->p); }
  int* counters() const { return static_cast<int*>(m_counters->p); }

 private:
  std::unique_ptr<DeviceBuffer> m_slots, m_counters;
};

template <class T, bool kTmaStore>
void launch_streamk(const LaunchArgs& a) {
  const CUtensorMap map_a = make_map(a.a, a.dtype, a.m, a.k, kBM);
  const CUtensorMap map_b = make_map(a.b, a.dtype, a.n, a.k, kBN);
  const CUtensorMap map_c = kTmaStore ? make_map(a.c, a.dtype, a.m, a.n, 64) : map_a;
  auto* kernel = matmul_wgmma_streamk_kernel<T, kTmaStore>;
  TILESIM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(kSmemBytes)));
  int dev = 0, sms = 0;
  TILESIM_CUDA_CHECK(cudaGetDevice(&dev));
  TILESIM_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const long long tiles = grid_blocks(a.grid), k_tiles = (a.k + kBK - 1) / kBK;
  if (tiles == 0) return;
  // The split (see the file's header). Every CTA of a stream-K range must get a K step.
  Plan plan;
  int ctas = static_cast<int>(std::min<long long>(tiles, sms));
  plan.dp_tiles = static_cast<int>(tiles);
  if (tiles >= sms) {
    const long long rem = tiles % sms;
    if (rem > 0 && rem * k_tiles >= sms) plan.dp_tiles = static_cast<int>(tiles - rem);
  } else if (tiles * k_tiles >= sms) {
    ctas = sms;
    plan.dp_tiles = 0;
  }
  plan.sk_tiles = static_cast<int>(tiles) - plan.dp_tiles;
  plan.sk_iters = static_cast<long long>(plan.sk_tiles) * k_tiles;
  if (plan.sk_tiles > 0) {
    static std::mutex mutex;
    static std::vector<std::unique_ptr<Workspace> > per_device;
    const std::lock_guard<std::mutex> lock(mutex);
    if (per_device.size() <= static_cast<std::size_t>(dev)) per_device.resize(dev + 1);
    if (!per_device[dev]) per_device[dev] = std::make_unique<Workspace>();
    per_device[dev]->reserve(ctas, plan.sk_tiles, a.stream);
    plan.slots = per_device[dev]->slots();
    plan.counters = per_device[dev]->counters();
  }
  // clang-format off
  kernel<<<static_cast<unsigned>(ctas), kThreads, kSmemBytes, a.stream>>>(
      map_a, map_b, map_c, static_cast<T*>(a.c), a.m, a.n, a.k, a.grid, plan);
  // clang-format on
  TILESIM_CUDA_CHECK_LAUNCH();
}

}  // namespace

std::string launch_matmul_wgmma_streamk(const LaunchArgs& a) {
  return launch_wgmma_checked(a, [](auto tag, const LaunchArgs& p) {
    using T = decltype(tag);
    // The TMA store needs C's row stride (N * 2 bytes) to be a multiple of 16.
    if (p.n % 8 == 0)
      launch_streamk<T, true>(p);
    else
      launch_streamk<T, false>(p);
  });
}
#endif  // TILESIM_NO_HOPPER

}  // namespace tilesim::kernels::detail
