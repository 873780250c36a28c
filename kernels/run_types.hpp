// What a kernel run reports: the device, the options it ran with and the result (time, throughput,
// error). Plain value structs with no CUDA and no JSON, in their own header-only target
// (tilesim_kernel_types), so scenario/ can read and write bench reports and tilesim-cli never links
// CUDA or the kernels.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "sim/program/problem.hpp"

namespace tilesim::kernels {

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
  // Set from another thread (the app quitting): the run stops before its next timed launch and
  // fails with "cancelled"; a launch already queued still completes.
  const std::atomic<bool>* cancel = nullptr;
};

// What one program of a compiled kernel holds (cudaFuncGetAttributes) and how many fit an SM
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor): what Triton's compiler reports as n_regs,
// n_spills and shared, and why a configuration cannot launch.
struct KernelResources {
  bool fits = false;  // false: `error` says why (shared memory over the limit, no kernel, no GPU)
  std::string error;
  int registers = 0;                    // per thread (numRegs)
  int spill_bytes = 0;                  // local memory per thread (localSizeBytes): spills
  std::int64_t shared_bytes = 0;        // dynamic shared memory per program
  std::int64_t shared_limit_bytes = 0;  // the device's per-block opt-in limit
  int threads = 0;                      // per program
  int programs_per_sm = 0;              // occupancy: resident programs per SM
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

}  // namespace tilesim::kernels
