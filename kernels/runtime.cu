// kernels::run: fresh random inputs, a poisoned output, one checked launch, then timed launches.
// Teaches the measuring discipline: never time zeros, check every element was written, compare
// with a higher-precision reference, warm up, flush L2 between launches, report the median.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <random>

#include "kernels/baselines_cublas.cuh"
#include "kernels/device_common.cuh"
#include "kernels/device_resources.cuh"
#include "kernels/kernels.hpp"
#include "kernels/reference.hpp"
#include "kernels/rung_timing.hpp"
#include "kernels/test_hooks.hpp"

namespace tilesim::kernels {
namespace detail {
namespace {

__device__ __forceinline__ std::uint64_t mix(std::uint64_t x) {  // splitmix64 finaliser
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Uniform in [-1, 1), never an exact zero pattern over a tile.
template <class T>
__global__ void fill_uniform_kernel(T* p, std::int64_t count, std::uint64_t seed) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < count;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const float u =
        static_cast<float>(mix(seed ^ (i * 0xD1B54A32D192ED03ull)) >> 40) * (1.f / 16777216.f);
    p[i] = from_float<T>(2.f * u - 1.f);
  }
}

template <class T>
__global__ void to_f32_kernel(const T* in, float* out, std::int64_t count) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < count;
       i += std::int64_t{gridDim.x} * blockDim.x)
    out[i] = to_float(in[i]);
}

// out (rows, cols) against ref (rows, cols), or against ref^T stored (cols, rows).
// sums[0] += (out - ref)^2, sums[1] += ref^2, counts[0] += elements not finite (the NaN poison).
template <class TOut, class TRef>
__global__ void compare_kernel(const TOut* out, const TRef* ref, std::int64_t rows,
                               std::int64_t cols, bool ref_transposed, double* sums,
                               unsigned long long* bad) {
  double d2 = 0, r2 = 0;
  unsigned long long nb = 0;
  const std::int64_t count = rows * cols;
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < count;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const std::int64_t r = i / cols, c = i % cols;
    const double o = to_float(out[i]);
    const double x = to_float(ref[ref_transposed ? c * rows + r : i]);
    if (!isfinite(o)) {
      ++nb;
      continue;
    }
    d2 += (o - x) * (o - x);
    r2 += x * x;
  }
  for (int off = 16; off > 0; off >>= 1) {
    d2 += __shfl_down_sync(0xffffffffu, d2, off);
    r2 += __shfl_down_sync(0xffffffffu, r2, off);
    nb += __shfl_down_sync(0xffffffffu, nb, off);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(&sums[0], d2);
    atomicAdd(&sums[1], r2);
    atomicAdd(bad, nb);
  }
}

__global__ void tile_map_kernel(GridMap g, long long* out) {
  std::int64_t pid_m, pid_n;
  tile_of(g, blockIdx.x, pid_m, pid_n);
  out[2 * std::int64_t{blockIdx.x}] = pid_m;
  out[2 * std::int64_t{blockIdx.x} + 1] = pid_n;
}

constexpr unsigned kStreamBlocks = 2048;

template <class F>
void by_dtype(sim::DType d, F&& f) {
  switch (d) {
    case sim::DType::fp32:
      f(float{});
      break;
    case sim::DType::fp16:
      f(__half{});
      break;
    case sim::DType::bf16:
      f(__nv_bfloat16{});
      break;
  }
}

void fill_uniform(void* p, std::int64_t count, sim::DType d, std::uint64_t seed) {
  by_dtype(d, [&](auto t) {
    using T = decltype(t);
    fill_uniform_kernel<T><<<kStreamBlocks, 256>>>(static_cast<T*>(p), count, seed);
  });
  TILESIM_CUDA_CHECK_LAUNCH();
}

struct Comparison {
  double rel_error = 0;
  std::int64_t unwritten = 0;
};

// out in dtype `d`; ref in dtype `ref_d` (the input for copies, FP32 for matmul references).
Comparison compare(const void* out, sim::DType d, const void* ref, sim::DType ref_d,
                   std::int64_t rows, std::int64_t cols, bool ref_transposed) {
  DeviceBuffer acc(2 * sizeof(double) + sizeof(unsigned long long));
  TILESIM_CUDA_CHECK(cudaMemset(acc.p, 0, acc.bytes));
  auto* sums = static_cast<double*>(acc.p);
  auto* bad = reinterpret_cast<unsigned long long*>(sums + 2);
  by_dtype(d, [&](auto to) {
    by_dtype(ref_d, [&](auto tr) {
      using TO = decltype(to);
      using TR = decltype(tr);
      compare_kernel<TO, TR><<<kStreamBlocks, 256>>>(static_cast<const TO*>(out),
                                                     static_cast<const TR*>(ref), rows, cols,
                                                     ref_transposed, sums, bad);
    });
  });
  TILESIM_CUDA_CHECK_LAUNCH();
  double h[2];
  unsigned long long hb = 0;
  TILESIM_CUDA_CHECK(cudaMemcpy(h, sums, sizeof h, cudaMemcpyDeviceToHost));
  TILESIM_CUDA_CHECK(cudaMemcpy(&hb, bad, sizeof hb, cudaMemcpyDeviceToHost));
  Comparison c;
  c.unwritten = static_cast<std::int64_t>(hb);
  c.rel_error = h[1] > 0 ? std::sqrt(h[0] / h[1]) : (h[0] > 0 ? INFINITY : 0.0);
  return c;
}

// FP32 copy of a device matrix (a no-op view for FP32).
struct F32View {
  std::unique_ptr<DeviceBuffer> owned;
  const float* p = nullptr;
};
F32View as_f32(const void* src, sim::DType d, std::int64_t count) {
  F32View v;
  if (d == sim::DType::fp32) {
    v.p = static_cast<const float*>(src);
    return v;
  }
  v.owned = std::make_unique<DeviceBuffer>(count * sizeof(float));
  by_dtype(d, [&](auto t) {
    using T = decltype(t);
    to_f32_kernel<T><<<kStreamBlocks, 256>>>(static_cast<const T*>(src),
                                             static_cast<float*>(v.owned->p), count);
  });
  TILESIM_CUDA_CHECK_LAUNCH();
  v.p = static_cast<const float*>(v.owned->p);
  return v;
}

std::vector<float> download(const float* p, std::int64_t count) {
  std::vector<float> h(static_cast<std::size_t>(count));
  TILESIM_CUDA_CHECK(cudaMemcpy(h.data(), p, count * sizeof(float), cudaMemcpyDeviceToHost));
  return h;
}

double tolerance_for(const Variant& v, sim::DType d) {
  if (v.kernel != sim::Kernel::matmul) return 0.0;  // copies are exact
  if (v.name == "cublas_tf32") return 5e-3;
  switch (d) {
    case sim::DType::fp32:
      return 1e-4;
    case sim::DType::fp16:
      return 5e-3;  // output rounding alone is ~3e-4
    case sim::DType::bf16:
      return 2e-2;  // output rounding alone is ~2e-3
  }
  return 0.0;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

void run_checked(const sim::Problem& problem, const Variant& v, const RunOptions& opt,
                 RunResult& r) {
  const DeviceInfo dev = query_device();
  r.device = dev.name;
  if (!dev.available) throw CudaError(dev.reason);
  if (!v.implemented) throw std::invalid_argument(v.name + " is not written yet: " + v.teaches);
  if (v.kernel != problem.kernel())
    throw std::invalid_argument(v.name + " runs " + std::string(sim::to_string(v.kernel)) +
                                " problems, not " + std::string(sim::to_string(problem.kernel())));
  if (std::find(v.dtypes.begin(), v.dtypes.end(), problem.spec().dtype) == v.dtypes.end())
    throw std::invalid_argument(v.name + " does not take " +
                                std::string(sim::to_string(problem.spec().dtype)));
  if (dev.cc_major * 10 + dev.cc_minor < v.min_cc)
    throw std::invalid_argument(v.name + " needs compute capability " +
                                std::to_string(v.min_cc / 10) + "." +
                                std::to_string(v.min_cc % 10) + ", this device is " +
                                std::to_string(dev.cc_major) + "." + std::to_string(dev.cc_minor));

  const sim::ProblemSpec spec = as_run_by(v, problem.spec());
  r.problem = spec;
  if (spec.boundary == sim::Boundary::wrap)
    r.note = "boundary wrap runs as mask: the two differ only in lanes whose stores are masked";

  LaunchArgs a;
  a.m = spec.m;
  a.n = spec.n;
  a.k = spec.kernel == sim::Kernel::matmul ? spec.k : 0;
  a.block_m = spec.block_m;
  a.block_n = spec.block_n;
  a.block_k = spec.block_k;
  a.num_warps = spec.num_warps;
  a.stages = spec.stages;
  a.grid = GridMap{sim::cdiv(spec.m, spec.block_m), sim::cdiv(spec.n, spec.block_n),
                   spec.group_size_m, static_cast<int>(spec.order)};
  a.dtype = spec.dtype;
  a.b_transposed = spec.b_layout == sim::BLayout::transposed;
  r.programs = a.grid.programs();

  const std::int64_t eb = problem.elem_bytes();
  const bool mm = spec.kernel == sim::Kernel::matmul;
  const std::int64_t a_elems = mm ? a.m * a.k : a.m * a.n;
  const std::int64_t b_elems = mm ? a.k * a.n : 0;
  const std::int64_t c_elems = a.m * a.n;
  const std::size_t flush_bytes = opt.cold_l2 ? static_cast<std::size_t>(2 * dev.l2_bytes) : 0;
  std::size_t free_b = 0, total_b = 0;
  TILESIM_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  const std::size_t need = (a_elems + b_elems + c_elems) * eb + flush_bytes +
                           (mm ? 4 * (a_elems + b_elems + 2 * c_elems) : 0);
  if (need > free_b * 0.9)
    throw std::invalid_argument("needs " + std::to_string(need >> 20) + " MiB of device memory, " +
                                std::to_string(free_b >> 20) + " MiB free");

  DeviceBuffer in_a(a_elems * eb), in_b(b_elems * eb), out_c(c_elems * eb);
  std::unique_ptr<DeviceBuffer> flush;
  if (flush_bytes) flush = std::make_unique<DeviceBuffer>(flush_bytes);
  a.a = in_a.p;
  a.b = in_b.p;
  a.c = out_c.p;
  // cuBLAS baselines and the large-matmul reference use a handle owned by this run.
  std::unique_ptr<CublasHandle> blas;
  if (mm) blas = std::make_unique<CublasHandle>();
  a.blas = blas.get();
  fail_point(testing::FailPoint::after_buffers);

  const std::uint64_t seed =
      opt.seed ? opt.seed : (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  fill_uniform(in_a.p, a_elems, spec.dtype, seed);
  if (b_elems) fill_uniform(in_b.p, b_elems, spec.dtype, seed * 0x9E3779B97F4A7C15ull + 1);

  const Launcher launch = find_launcher(v.name);
  if (!launch) throw std::invalid_argument("no launcher for " + v.name);

  // The checked launch, on a poisoned output (0xFF bytes: NaN in FP32, FP16 and BF16).
  TILESIM_CUDA_CHECK(cudaMemset(out_c.p, 0xFF, out_c.bytes));
  if (std::string why = launch(a); !why.empty()) throw std::invalid_argument(v.name + ": " + why);
  TILESIM_CUDA_CHECK(cudaDeviceSynchronize());

  r.tolerance = tolerance_for(v, spec.dtype);
  if (opt.check) {
    Comparison cmp;
    if (!mm) {
      r.reference = "exact";
      cmp = compare(out_c.p, spec.dtype, in_a.p, spec.dtype,
                    spec.kernel == sim::Kernel::transpose ? a.n : a.m,
                    spec.kernel == sim::Kernel::transpose ? a.m : a.n,
                    spec.kernel == sim::Kernel::transpose);
    } else {
      const F32View a32 = as_f32(in_a.p, spec.dtype, a_elems),
                    b32 = as_f32(in_b.p, spec.dtype, b_elems);
      DeviceBuffer ref(c_elems * sizeof(float));
      if (static_cast<double>(a.m) * a.n * a.k <= opt.cpu_reference_max_macs) {
        r.reference = "cpu-fp64";
        const auto h = matmul_reference_fp64(download(a32.p, a_elems), download(b32.p, b_elems),
                                             a.m, a.n, a.k, a.b_transposed);
        TILESIM_CUDA_CHECK(
            cudaMemcpy(ref.p, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
      } else {
        r.reference = "cublas-sgemm-fp32";
        LaunchArgs ra = a;
        ra.a = a32.p;
        ra.b = b32.p;
        ra.c = ref.p;
        ra.dtype = sim::DType::fp32;
        if (std::string why = cublas_matmul(ra, CublasMode::sgemm_strict); !why.empty())
          throw std::runtime_error("reference: " + why);
      }
      cmp = compare(out_c.p, spec.dtype, ref.p, sim::DType::fp32, a.m, a.n, false);
    }
    TILESIM_CUDA_CHECK(cudaDeviceSynchronize());
    r.checked = true;
    r.rel_error = cmp.rel_error;
    r.unwritten = cmp.unwritten;
    r.correct = cmp.unwritten == 0 && std::isfinite(cmp.rel_error) && cmp.rel_error <= r.tolerance;
  }

  if (opt.time) {
    const CudaEvent start, stop;
    std::vector<double> ms;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < opt.warmup + opt.repeats; ++i) {
      if (opt.cancel && opt.cancel->load()) throw std::runtime_error("cancelled");
      if (flush) TILESIM_CUDA_CHECK(cudaMemsetAsync(flush->p, i & 0xFF, flush->bytes));
      fail_point(testing::FailPoint::in_timing);
      TILESIM_CUDA_CHECK(cudaEventRecord(start.get()));
      launch(a);
      TILESIM_CUDA_CHECK(cudaEventRecord(stop.get()));
      TILESIM_CUDA_CHECK(cudaEventSynchronize(stop.get()));
      float t = 0;
      TILESIM_CUDA_CHECK(cudaEventElapsedTime(&t, start.get(), stop.get()));
      if (i >= opt.warmup) ms.push_back(t);
      const double spent =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (ms.size() >= 3 && spent > opt.max_seconds) break;
    }
    r.timed_runs = static_cast<int>(ms.size());
    r.median_ms = median(ms);
    r.min_ms = *std::min_element(ms.begin(), ms.end());
    r.max_ms = *std::max_element(ms.begin(), ms.end());
    const sim::Throughput rate = sim::throughput(problem, r.median_ms * 1e-3);
    r.throughput = rate.value;
    r.throughput_unit = std::string(rate.unit);
  }
  r.ok = !opt.check || r.correct;
  if (!r.ok && r.error.empty())
    r.error = r.unwritten ? std::to_string(r.unwritten) + " output elements unwritten or not finite"
                          : "relative error above tolerance";
}

void launch_tile_map(const GridMap& g, long long* out, cudaStream_t stream) {
  tile_map_kernel<<<grid_blocks(g), 1, 0, stream>>>(g, out);
  TILESIM_CUDA_CHECK_LAUNCH();
}

}  // namespace

}  // namespace detail

bool cuda_built() {
  return true;
}

DeviceInfo query_device() {
  DeviceInfo d;
  int count = 0;
  if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
    // Without an NVIDIA driver CUDA reports a driver/runtime version mismatch, which reads as if
    // the driver were merely old: say plainly that there is no GPU to run on.
    d.reason = e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice
                   ? std::string("no NVIDIA GPU with a working driver on this machine (CUDA: ") +
                         cudaGetErrorString(e) + ")"
                   : std::string("no CUDA device: ") + cudaGetErrorString(e);
    cudaGetLastError();
    return d;
  }
  if (count == 0) {
    d.reason = "no NVIDIA GPU on this machine (the driver sees none)";
    return d;
  }
  int dev = 0;
  cudaDeviceProp p{};
  if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&p, dev) != cudaSuccess) {
    d.reason = "cannot read the device's properties";
    return d;
  }
  d.available = true;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.l2_bytes = p.l2CacheSize;
  d.global_mem_bytes = static_cast<std::int64_t>(p.totalGlobalMem);
  d.smem_per_block_optin_bytes = static_cast<std::int64_t>(p.sharedMemPerBlockOptin);
  d.mem_bus_bits = p.memoryBusWidth;
  int khz = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev) == cudaSuccess)
    d.sm_clock_mhz = khz / 1000;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, dev) == cudaSuccess)
    d.mem_clock_mhz = khz / 1000;
  d.peak_dram_gbs = 2.0 * d.mem_clock_mhz * 1e6 * (d.mem_bus_bits / 8.0) / 1e9;
  cudaDriverGetVersion(&d.driver_version);
  cudaRuntimeGetVersion(&d.runtime_version);
  return d;
}

RunResult run(const sim::Problem& problem, std::string_view variant, const RunOptions& options) {
  RunResult r;
  r.variant = std::string(variant);
  r.problem = problem.spec();
  const Variant* v = find_variant(variant);
  if (!v) {
    r.error = "unknown variant '" + std::string(variant) + "'";
    return r;
  }
  try {
    detail::run_checked(problem, *v, options, r);
  } catch (const std::exception& e) {
    r.ok = false;
    r.error = e.what();
  }
  return r;
}

std::optional<std::vector<sim::TileCoord>> device_launch_mapping(sim::LaunchOrder order,
                                                                 const sim::GridShape& g,
                                                                 std::string* why) {
  const DeviceInfo dev = query_device();
  if (!dev.available) {
    if (why) *why = dev.reason;
    return std::nullopt;
  }
  try {
    const detail::GridMap gm{g.tiles_m, g.tiles_n, g.group_size_m, static_cast<int>(order)};
    detail::DeviceBuffer out(2 * sizeof(long long) * gm.programs());
    detail::launch_tile_map(gm, static_cast<long long*>(out.p), nullptr);
    std::vector<long long> h(2 * gm.programs());
    TILESIM_CUDA_CHECK(
        cudaMemcpy(h.data(), out.p, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
    std::vector<sim::TileCoord> t(gm.programs());
    for (std::int64_t i = 0; i < gm.programs(); ++i) t[i] = {h[2 * i], h[2 * i + 1]};
    return t;
  } catch (const std::exception& e) {
    if (why) *why = e.what();
    return std::nullopt;
  }
}

namespace testing {

void inject_failure(FailPoint at) {
  detail::g_fail_at = at;
}
int live_events() {
  return detail::g_live_events;
}
int live_buffers() {
  return detail::g_live_buffers;
}
std::int64_t device_free_bytes() {
  std::size_t free_b = 0, total_b = 0;
  // Stream-ordered frees (cudaFreeAsync) complete at the next synchronisation.
  if (cudaDeviceSynchronize() != cudaSuccess || cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return static_cast<std::int64_t>(free_b);
}

}  // namespace testing

}  // namespace tilesim::kernels
