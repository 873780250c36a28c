// Problem: what kernel runs on what sizes with which tiles — the input every other layer reads.
// Teaches: a tiled kernel is fully described by its sizes, its block sizes, its launch order and
// how it treats the boundary; everything else (grid, strides, bytes) is derived from these.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/base/limits.hpp"

namespace tilesim::sim {

enum class Kernel { copy, transpose, matmul };
enum class DType { fp16, bf16, fp32 };
// Seed 003's "coalesced" variant stores B transposed: B^T is (N, K) row-major, so stride_bk = 1.
enum class BLayout { row_major, transposed };
// mask: masked loads and stores (seed 000). wrap: rows % M and columns % N on loads, K masked,
// stores masked (seed 001 and Triton's tutorial).
enum class Boundary { mask, wrap };
enum class LaunchOrder { row_major, column_major, grouped, grouped_legacy };
// Triton's tl.dot(input_precision=...) for fp32 inputs: ieee runs FP32 FMA on the CUDA cores, tf32
// the TF32 tensor cores (Triton's own default on GPUs that have them). fp16/bf16 ignore it.
enum class InputPrecision { ieee, tf32 };

std::string_view to_string(Kernel v);
std::string_view to_string(DType v);
std::string_view to_string(BLayout v);
std::string_view to_string(Boundary v);
std::string_view to_string(LaunchOrder v);
std::string_view to_string(InputPrecision v);

// Parsers return nullopt for an unknown name; allowed_names() lists the valid spellings.
std::optional<Kernel> parse_kernel(std::string_view s);
std::optional<DType> parse_dtype(std::string_view s);
std::optional<BLayout> parse_b_layout(std::string_view s);
std::optional<Boundary> parse_boundary(std::string_view s);
std::optional<LaunchOrder> parse_launch_order(std::string_view s);
std::optional<InputPrecision> parse_input_precision(std::string_view s);
template <class E>
std::string allowed_names();  // "copy | transpose | matmul"

// The named value of enum E, or InvalidField(field) naming the allowed spellings.
template <class E>
E parse_field(std::string_view field, std::string_view value);

// Plain, unvalidated fields: what a scenario file or the command line says.
struct ProblemSpec {
  Kernel kernel = Kernel::matmul;
  std::int64_t m = 574, n = 574, k = 574;  // copy/transpose use M x N only
  DType dtype = DType::fp16;
  BLayout b_layout = BLayout::row_major;
  int block_m = 64, block_n = 64, block_k = 64;
  std::int64_t group_size_m = 3;
  Boundary boundary = Boundary::mask;
  LaunchOrder order = LaunchOrder::grouped;
  int stages = 2;     // software-pipeline depth: shared memory holds `stages` A and B tiles
  int num_warps = 4;  // Triton's num_warps: 32 threads each, the program's share of the SM
  InputPrecision input_precision = InputPrecision::ieee;  // fp32 matmul: FMA or TF32 cores
  bool operator==(const ProblemSpec&) const = default;
};

// The matrices a kernel touches. Copy: in (M, N) -> out (M, N). Transpose: in (M, N) -> out (N, M).
// Matmul: A (M, K) @ B (K, N) -> C (M, N).
enum class Operand { a, b, c };

struct MatrixShape {
  std::int64_t rows = 0, cols = 0;
  std::int64_t stride_row = 0, stride_col = 0;  // in elements
  std::int64_t elements() const { return rows * cols; }
};

struct ProgramPlan;  // program_plan.hpp

// A validated problem. Construction throws InvalidField naming the first bad field.
class Problem {
 public:
  // The steps of its programs are those of the built-in listing for (kernel, boundary, order).
  explicit Problem(const ProblemSpec& spec);
  // ... or those of a kernel file's plan (plan_from_records.hpp), read at this spec; the timing
  // model needs sim's steps (same_steps against the built-in's), which the bridge checks.
  Problem(const ProblemSpec& spec, std::shared_ptr<const ProgramPlan> plan);
  const ProblemSpec& spec() const { return m_spec; }
  const ProgramPlan& plan() const { return *m_plan; }
  const std::shared_ptr<const ProgramPlan>& plan_ptr() const { return m_plan; }

  Kernel kernel() const { return m_spec.kernel; }
  std::int64_t m() const { return m_spec.m; }
  std::int64_t n() const { return m_spec.n; }
  std::int64_t k() const { return m_spec.k; }
  int block_m() const { return m_spec.block_m; }
  int block_n() const { return m_spec.block_n; }
  int block_k() const { return m_spec.block_k; }
  LaunchOrder order() const { return m_spec.order; }
  Boundary boundary() const { return m_spec.boundary; }
  int num_warps() const { return m_spec.num_warps; }
  int threads_per_program() const { return 32 * m_spec.num_warps; }

  int elem_bytes() const;        // 2 for fp16/bf16, 4 for fp32
  std::int64_t tiles_m() const;  // cdiv(M, BLOCK_M)
  std::int64_t tiles_n() const;  // cdiv(N, BLOCK_N)
  std::int64_t k_tiles() const;  // cdiv(K, BLOCK_K) for matmul, else 0
  std::int64_t programs() const { return tiles_m() * tiles_n(); }
  // Group size actually used: GROUP_SIZE_M as given (the formulas clamp the last group).
  std::int64_t group_size_m() const { return m_spec.group_size_m; }

  // Shapes and strides of A, B, C (matmul) or in = a, out = c (copy, transpose).
  MatrixShape shape(Operand op) const;
  // Byte address of element 0 of each operand in one flat address space: A, then B, then C,
  // each aligned to 4 KiB, so the L2 model sees distinct lines per matrix.
  std::uint64_t base_address(Operand op) const;
  std::uint64_t address_space_bytes() const;

  // FLOPs the kernel does (2*M*N*K for matmul, 0 for copy/transpose) and the minimum bytes it
  // must move (each input read once, output written once).
  double useful_flops() const;
  double compulsory_bytes() const;

 private:
  ProblemSpec m_spec;
  std::shared_ptr<const ProgramPlan> m_plan;  // never null (but in a moved-from Problem)
};

std::int64_t cdiv(std::int64_t a, std::int64_t b);

// Useful work per second of a run of `p` that took `seconds` (0 when seconds <= 0): what
// tilesim-bench reports for a measured run, the sweep for a predicted one and `run` as tflops.
// TFLOP/s of useful_flops() for matmul; GB/s of the M x N elements read once and written once
// for copy and transpose.
struct Throughput {
  double value = 0;
  std::string_view unit;  // "TFLOP/s" | "GB/s"
};
Throughput throughput(const Problem& p, double seconds);

}  // namespace tilesim::sim
