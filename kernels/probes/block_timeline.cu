// Probe: when each program (thread block) of a matmul rung starts and ends, and on which SM
// (%globaltimer, %smid), to set beside the timed engine's per-program spans (`tilesim-cli run
// --programs-csv`): do row-major waves drift apart on the GPU as the model says? One kernel file
// per build, included here with TILESIM_BLOCK_TRACE so its BlockSpan records (kernels/
// device_common.cuh); the kernel is otherwise the production one.
// Build and run (standalone, from the repository root; nlohmann-json is not needed):
//   nvcc -O3 -std=c++20 --expt-relaxed-constexpr -arch=sm_90 -I. -DPROBE_MMA_SYNC \
//     -o bt_mma kernels/probes/block_timeline.cu
//   nvcc -O3 -std=c++20 --expt-relaxed-constexpr -arch=sm_90 -I. -DPROBE_REGISTER_BLOCKED \
//     -o bt_rb kernels/probes/block_timeline.cu
//   ./bt_mma 8192 row-major 2 > spans.csv   (size, order, launches; grouped uses GROUP_SIZE_M 8)
//   ./bt_mma 1536x1408x8192 row-major 2     (M x N x K: 12 x 11 = 132 tiles, one per SM of an
//                                            H100/H200: how long a program takes alone)
//   -DPROBE_TRANSPOSE_TILED / _PADDED / _VECTORIZED: FP32 transposes of 32 x 32 tiles (SIZE or
//   MxN; mid_ns: past the barrier)
//   -DPROBE_WGMMA_TMA / -DPROBE_WGMMA_PERSISTENT with -arch=sm_90a (and -lcuda): the Hopper rungs
// Every row's `cycles` is its SM's clock64 from start to end: cycles / (end_ns - start_ns) is the
// clock the program ran at, under the load it ran with.
#define TILESIM_BLOCK_TRACE 1
// -DPROBE_KSTEPS: also the K-step hook (KSTEPS=FILE below). It changes the kernel's dynamics
// (kernels/device_common.cuh): use it to see K steps, not to measure spans or DRAM bytes.
#if defined(PROBE_KSTEPS)
#define TILESIM_KSTEP_TRACE 1
#endif
#if defined(PROBE_WGMMA_TMA) || defined(PROBE_WGMMA_PERSISTENT)
// Hopper rungs (-arch=sm_90a): a 128 x 256 tile, B read as B^T. The persistent rung's blocks are
// its CTAs (one per SM, each walking many tiles): only the first gridDim.x rows are blocks.
#include "kernels/matmul_wgmma_tma.cu"
#if defined(PROBE_WGMMA_TMA)
#define LAUNCH launch_matmul_wgmma_tma
constexpr const char* kVariant = "matmul_wgmma_tma";
#else
#define LAUNCH launch_matmul_wgmma_persistent
constexpr const char* kVariant = "matmul_wgmma_persistent";
#endif
#define ELEM __half
#define PROBE_TILE_N 256
#define PROBE_B_TRANSPOSED 1
constexpr int kTile = 128;
#elif defined(PROBE_MMA_SYNC)
#include "kernels/matmul_mma_sync.cu"
#define LAUNCH launch_matmul_mma_sync
#define ELEM __half
constexpr int kTile = 128;
constexpr const char* kVariant = "matmul_mma_sync";
#elif defined(PROBE_REGISTER_BLOCKED)
#include "kernels/matmul_register_blocked.cu"
#define LAUNCH launch_matmul_register_blocked
#define ELEM float
constexpr int kTile = 128;
constexpr const char* kVariant = "matmul_register_blocked";
#elif defined(PROBE_TRANSPOSE_TILED) || defined(PROBE_TRANSPOSE_PADDED) || \
    defined(PROBE_TRANSPOSE_VECTORIZED)
// FP32 transposes through shared memory, 32 x 32 tiles: mid_ns is when the block is past its
// barrier (its tile loaded and written to shared memory; the column reads and stores follow).
#include "kernels/transpose.cu"
#if defined(PROBE_TRANSPOSE_TILED)
#define LAUNCH launch_transpose_smem_tiled
constexpr const char* kVariant = "transpose_smem_tiled";
#elif defined(PROBE_TRANSPOSE_VECTORIZED)
#define LAUNCH launch_transpose_smem_padded_vectorized
constexpr const char* kVariant = "transpose_smem_padded_vectorized";
#else
#define LAUNCH launch_transpose_smem_padded
constexpr const char* kVariant = "transpose_smem_padded";
#endif
#define ELEM float
#define PROBE_TRANSPOSE 1
constexpr int kTile = 32;
#else
#error \
    "define PROBE_MMA_SYNC, PROBE_WGMMA_TMA, PROBE_WGMMA_PERSISTENT, PROBE_REGISTER_BLOCKED or PROBE_TRANSPOSE_TILED, _PADDED, _VECTORIZED"
#endif
#if defined(PROBE_TILE_N)
constexpr int kTileN = PROBE_TILE_N;
#else
constexpr int kTileN = kTile;
#endif

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

using tilesim::kernels::detail::check_cuda;

template <class T>
__global__ void fill(T* p, std::size_t n, unsigned seed) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const unsigned h = (static_cast<unsigned>(i) * 2654435761u) ^ seed;
    p[i] = static_cast<T>(static_cast<float>(h % 2001) / 1000.f - 1.f);
  }
}

// Owns one device allocation.
template <class T>
struct DeviceBuffer {
  T* p = nullptr;
  explicit DeviceBuffer(std::size_t n) { TILESIM_CUDA_CHECK(cudaMalloc(&p, n * sizeof(T))); }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s SIZE|MxNxK row-major|grouped LAUNCHES\n", argv[0]);
    return 2;
  }
  long long m = 0, n = 0, k = 0;
  if (std::sscanf(argv[1], "%lldx%lldx%lld", &m, &n, &k) != 3) m = n = k = std::atoll(argv[1]);
#if defined(PROBE_TRANSPOSE)
  k = kTile;  // unused by a transpose: in (M, N) -> out (N, M)
#endif
  const bool grouped = std::strcmp(argv[2], "grouped") == 0;
  const int launches = std::atoi(argv[3]);
  for (const long long d : {m, n, k})
    if (d < kTile || d > 16384 || d % kTile != 0 || n % kTileN != 0) {
      std::fprintf(stderr, "size: M, N and K multiples of %d in %d..16384\n", kTile, kTile);
      return 2;
    }
  if (launches < 1 || launches > 16) {
    std::fprintf(stderr, "launches: 1..16\n");
    return 2;
  }
  const long long size = m;  // the CSV's size column: M
  try {
    const auto elems = [](long long r, long long c) { return static_cast<std::size_t>(r * c); };
#if defined(PROBE_TRANSPOSE)
    DeviceBuffer<ELEM> a(elems(m, n)), b(1), c(elems(n, m));
    fill<<<1024, 256>>>(a.p, elems(m, n), 1u);
#else
    DeviceBuffer<ELEM> a(elems(m, k)), b(elems(k, n)), c(elems(m, n));
    fill<<<1024, 256>>>(a.p, elems(m, k), 1u);
    fill<<<1024, 256>>>(b.p, elems(k, n), 2u);
#endif
    TILESIM_CUDA_CHECK_LAUNCH();
    tilesim::kernels::detail::LaunchArgs args;
    args.a = a.p, args.b = b.p, args.c = c.p;
    args.m = m, args.n = n, args.k = k;
    args.block_m = kTile;
    args.block_n = kTileN;
#if defined(PROBE_B_TRANSPOSED)
    args.b_transposed = true;
#endif
    args.dtype =
        std::is_same_v<ELEM, float> ? tilesim::sim::DType::fp32 : tilesim::sim::DType::fp16;
    args.grid.tiles_m = m / kTile;
    args.grid.tiles_n = n / kTileN;
    args.grid.group_size_m = grouped ? 8 : 1;
    args.grid.order = static_cast<int>(grouped ? tilesim::sim::LaunchOrder::grouped
                                               : tilesim::sim::LaunchOrder::row_major);
    const std::int64_t programs = args.grid.programs();
    constexpr int W = tilesim::kernels::detail::kBlockTraceWords;
    DeviceBuffer<unsigned long long> trace(W * static_cast<std::size_t>(programs));
    TILESIM_CUDA_CHECK(
        cudaMemcpyToSymbol(tilesim::kernels::detail::g_block_trace, &trace.p, sizeof(trace.p)));
    std::vector<unsigned long long> host(W * static_cast<std::size_t>(programs));
    // KSTEPS=FILE: also every K step's start time (binary uint64, (launches, programs, k_tiles),
    // ns from the launch's first block start): the mma_sync build with -DPROBE_KSTEPS records
    // them.
    const char* ksteps_path = std::getenv("KSTEPS");
    const int k_tiles = static_cast<int>(k / 32);
    DeviceBuffer<unsigned long long> ksteps(
        ksteps_path ? static_cast<std::size_t>(programs) * k_tiles : 1);
    std::vector<unsigned long long> khost(ksteps_path ? static_cast<std::size_t>(programs) * k_tiles
                                                      : 0);
    std::FILE* kout = ksteps_path ? std::fopen(ksteps_path, "wb") : nullptr;
    if (ksteps_path) {
      if (!kout) throw std::runtime_error(std::string("cannot write ") + ksteps_path);
      TILESIM_CUDA_CHECK(
          cudaMemcpyToSymbol(tilesim::kernels::detail::g_kstep_trace, &ksteps.p, sizeof(ksteps.p)));
      TILESIM_CUDA_CHECK(
          cudaMemcpyToSymbol(tilesim::kernels::detail::g_kstep_tiles, &k_tiles, sizeof(k_tiles)));
    }
    // cycles: the program's SM cycles start to end (clock64), so cycles / (end_ns - start_ns) is
    // the clock it ran at (GHz).
    std::printf("variant,size,order,launch,pid,pid_m,pid_n,sm,start_ns,end_ns,mid_ns,cycles\n");
    for (int l = 0; l <= launches; ++l) {  // launch 0 warms up and is not printed
      TILESIM_CUDA_CHECK(cudaMemset(trace.p, 0, host.size() * sizeof(unsigned long long)));
      const std::string err = tilesim::kernels::detail::LAUNCH(args);
      if (!err.empty()) throw std::runtime_error(err);
      TILESIM_CUDA_CHECK(cudaDeviceSynchronize());
      TILESIM_CUDA_CHECK(cudaMemcpy(host.data(), trace.p, host.size() * sizeof(unsigned long long),
                                    cudaMemcpyDeviceToHost));
      if (l == 0) continue;
      unsigned long long t0 = ~0ull;
      for (std::int64_t p = 0; p < programs; ++p)  // 0: no block of that index (persistent)
        if (host[W * p + 1]) t0 = std::min(t0, host[W * p + 1]);
      if (kout) {
        TILESIM_CUDA_CHECK(cudaMemcpy(khost.data(), ksteps.p,
                                      khost.size() * sizeof(unsigned long long),
                                      cudaMemcpyDeviceToHost));
        for (auto& t : khost) t = t >= t0 ? t - t0 : 0;
        std::fwrite(khost.data(), sizeof(unsigned long long), khost.size(), kout);
      }
      for (std::int64_t p = 0; p < programs; ++p) {
        std::int64_t pm, pn;
        tilesim::kernels::detail::tile_of(args.grid, p, pm, pn);
        const unsigned long long* w = host.data() + W * p;
        const unsigned long long mid = w[3];  // 0: the kernel marks none
        std::printf("%s,%lld,%s,%d,%lld,%lld,%lld,%llu,%llu,%llu,%llu,%llu\n", kVariant, size,
                    argv[2], l, static_cast<long long>(p), static_cast<long long>(pm),
                    static_cast<long long>(pn), w[0], w[1] - t0, w[2] - t0, mid > t0 ? mid - t0 : 0,
                    w[5] - w[4]);
      }
    }
    if (kout) std::fclose(kout);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
