// tilesim::kernels: the simulator's tile programs run for real on a CUDA GPU, checked and timed.
// Teaches: the same Problem (sizes, blocks, launch order, GROUP_SIZE_M) that the simulator replays
// runs as a CUDA kernel whose blocks take (pid_m, pid_n) from sim::tile_of; its time, throughput
// and error sit beside a library baseline (cudaMemcpy, cuBLAS) measured in the same run.
// Plain C++ only: no CUDA type crosses this header. A build without CUDA links and says "not
// built".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/launch_order.hpp"
#include "sim/problem.hpp"

namespace tilesim::kernels {

// Was the library compiled with CUDA? (false: every run answers "not built").
bool cuda_built();

// The GPU this process sees. available == false: `reason` says why ("not built with CUDA",
// "no NVIDIA GPU with a working driver on this machine (CUDA: ...)").
struct DeviceInfo {
  bool available = false;
  std::string reason;
  std::string name;                // "NVIDIA H100 80GB HBM3"
  int cc_major = 0, cc_minor = 0;  // compute capability
  int sm_count = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t global_mem_bytes = 0;
  std::int64_t smem_per_block_optin_bytes = 0;
  int sm_clock_mhz = 0;  // maximum (boost) SM clock
  int mem_clock_mhz = 0;
  int mem_bus_bits = 0;
  double peak_dram_gbs = 0;  // 2 * mem clock * bus width (datasheet figure, not measured)
  int driver_version = 0, runtime_version = 0;  // 13000 = 13.0
};
DeviceInfo query_device();

// What a variant is: a rung of a family's ladder or a library baseline.
enum class VariantKind { rung, baseline };

struct Variant {
  std::string name;    // "matmul_mma_sync"
  sim::Kernel kernel;  // the family it belongs to
  VariantKind kind = VariantKind::rung;
  std::vector<sim::DType> dtypes;  // element types it runs
  // Tiles: true when the kernel uses the problem's BLOCK_M/N/K; false when it has its own
  // compile-time tile (fixed_block_*), which the launch order and GROUP_SIZE_M then apply to.
  bool uses_problem_blocks = true;
  int fixed_block_m = 0, fixed_block_n = 0, fixed_block_k = 0;
  // Matmul: the B layout the variant reads. nullopt: the problem's b_layout.
  std::optional<sim::BLayout> b_layout;
  std::string baseline;     // the baseline its % is taken against ("cublas_sgemm"); "" if none
  int min_cc = 0;           // e.g. 80 for mma.sync bf16, 90 for wgmma
  bool implemented = true;  // false: listed honestly as missing (see `teaches`)
  std::string teaches;      // one line: what this version shows
};
// Every variant, in ladder order (copy, transpose, matmul; rungs then baselines).
const std::vector<Variant>& variants();
const Variant* find_variant(std::string_view name);
// The baseline a variant's % of baseline uses for this dtype ("cublas_gemmex" for fp16/bf16).
std::string baseline_for(const Variant& v, sim::DType dtype);

struct RunOptions {
  int warmup = 3;            // untimed launches after the checked one
  int repeats = 20;          // timed launches (median reported)
  double max_seconds = 3.0;  // stop timing early past this (at least 3 timed launches)
  bool check = true;         // compare against the reference before timing
  bool time = true;          // false: check only
  bool cold_l2 = true;       // overwrite a 2 x L2 scratch buffer before each timed launch
  std::uint64_t seed = 0;    // 0: a fresh seed from std::random_device
  // Matmul reference: float64 on the CPU when M*N*K <= this, else cuBLAS SGEMM in strict FP32
  // on the same (upcast) inputs.
  double cpu_reference_max_macs = 3.0e8;
};

struct RunResult {
  bool ok = false;    // ran (and, when checked, passed)
  std::string error;  // why not: "not built with CUDA", "tile too large for ...", ...
  std::string variant;
  std::string device;         // device name
  sim::ProblemSpec problem;   // as run: the blocks and b_layout actually used
  std::int64_t programs = 0;  // grid size (1-D, pid = blockIdx.x)
  // Timing (milliseconds per launch, CUDA events).
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int timed_runs = 0;
  // Throughput: TFLOP/s for matmul (2*M*N*K / t), GB/s for copy and transpose
  // (bytes read + bytes written over t, decimal GB).
  double throughput = 0;
  std::string throughput_unit;  // "TFLOP/s" | "GB/s"
  // Correctness: ||out - ref||_F / ||ref||_F (0 for exact copies), the tolerance it must be under,
  // and how many output elements were left unwritten (still the NaN poison) or are not finite.
  bool checked = false;
  bool correct = false;
  double rel_error = 0;
  double tolerance = 0;
  std::int64_t unwritten = 0;
  std::string reference;  // "exact" | "cpu-fp64" | "cublas-sgemm-fp32"
  std::string note;       // e.g. "boundary wrap runs as mask (they differ only in masked lanes)"
};

// Runs one variant on one problem: fresh random inputs, output poisoned (NaN bytes), one checked
// launch, then warm-up and timed launches. Never throws; failures land in RunResult::error.
RunResult run(const sim::Problem& problem, std::string_view variant,
              const RunOptions& options = {});

// The device's own pid -> (pid_m, pid_n): a kernel of g.programs() blocks, each writing what the
// kernels' __device__ tile_of returned for its blockIdx.x. nullopt (and `why`) without a device.
std::optional<std::vector<sim::TileCoord>> device_launch_mapping(sim::LaunchOrder order,
                                                                 const sim::GridShape& g,
                                                                 std::string* why = nullptr);

}  // namespace tilesim::kernels
