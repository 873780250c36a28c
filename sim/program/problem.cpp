// Problem validation and the quantities derived from sizes and blocks.
#include "sim/program/problem.hpp"

#include <array>
#include <bit>
#include <tuple>
#include <type_traits>
#include <utility>

#include "sim/base/enum_names.hpp"
#include "sim/program/program_plan.hpp"

namespace tilesim::sim {
namespace {

template <class E, std::size_t N>
using NameTable = enum_names::Table<E, N>;
using enum_names::join_names;
using enum_names::name_of;
using enum_names::parse_in;

constexpr NameTable<Kernel, 3> kKernelNames{
    {{Kernel::copy, "copy"}, {Kernel::transpose, "transpose"}, {Kernel::matmul, "matmul"}}};
constexpr NameTable<DType, 3> kDTypeNames{
    {{DType::fp16, "fp16"}, {DType::bf16, "bf16"}, {DType::fp32, "fp32"}}};
constexpr NameTable<BLayout, 2> kBLayoutNames{
    {{BLayout::row_major, "row-major"}, {BLayout::transposed, "transposed"}}};
constexpr NameTable<Boundary, 2> kBoundaryNames{
    {{Boundary::mask, "mask"}, {Boundary::wrap, "wrap"}}};
constexpr NameTable<LaunchOrder, 4> kOrderNames{{{LaunchOrder::row_major, "row-major"},
                                                 {LaunchOrder::column_major, "column-major"},
                                                 {LaunchOrder::grouped, "grouped"},
                                                 {LaunchOrder::grouped_legacy, "grouped-legacy"}}};
constexpr NameTable<InputPrecision, 2> kPrecisionNames{
    {{InputPrecision::ieee, "ieee"}, {InputPrecision::tf32, "tf32"}}};

// Each enum's table, found by its type: names<Kernel>() is kKernelNames.
constexpr std::tuple kNameTables{kKernelNames,   kDTypeNames, kBLayoutNames,
                                 kBoundaryNames, kOrderNames, kPrecisionNames};
template <class E, std::size_t I = 0>
constexpr const auto& names() {
  using Row = typename std::tuple_element_t<I, decltype(kNameTables)>::value_type;
  if constexpr (std::is_same_v<typename Row::first_type, E>)
    return std::get<I>(kNameTables);
  else
    return names<E, I + 1>();
}

// A block must be a power of two (tl.arange needs one) and no larger than the smallest power of
// two covering its dimension: a bigger block only adds lanes that are always masked off.
void check_block(const char* field, const char* dim_name, int block, std::int64_t dim) {
  if (block < 1 || block > kMaxBlock || !std::has_single_bit(static_cast<unsigned>(block)))
    throw InvalidField(field, std::string(field) + " = " + std::to_string(block) +
                                  " is not allowed: a power of two in 1..256");
  const auto cover = static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(dim)));
  if (block > cover)
    throw InvalidField(field, std::string(field) + " = " + std::to_string(block) +
                                  " is larger than the matrix: " + dim_name + " = " +
                                  std::to_string(dim) + " needs at most " + std::to_string(cover));
}

// An enum field set from a number (a program's own edit, a cast) must be one of its names: a
// Problem never holds a value that to_string would print as "?" and no file could read back.
template <class E>
void check_enum(const char* field, E v) {
  for (const auto& [value, name] : names<E>())
    if (value == v) return;
  throw InvalidField(field, std::string(field) + " = " + std::to_string(static_cast<long long>(v)) +
                                " is not one of: " + join_names(names<E>()));
}

std::uint64_t align_up(std::uint64_t v, std::uint64_t a) {
  return (v + a - 1) / a * a;
}

}  // namespace

std::string_view to_string(Kernel v) {
  return name_of(kKernelNames, v);
}
std::string_view to_string(DType v) {
  return name_of(kDTypeNames, v);
}
std::string_view to_string(BLayout v) {
  return name_of(kBLayoutNames, v);
}
std::string_view to_string(Boundary v) {
  return name_of(kBoundaryNames, v);
}
std::string_view to_string(LaunchOrder v) {
  return name_of(kOrderNames, v);
}

std::string_view to_string(InputPrecision v) {
  return name_of(kPrecisionNames, v);
}

std::optional<Kernel> parse_kernel(std::string_view s) {
  return parse_in(kKernelNames, s);
}
std::optional<DType> parse_dtype(std::string_view s) {
  return parse_in(kDTypeNames, s);
}
std::optional<BLayout> parse_b_layout(std::string_view s) {
  return parse_in(kBLayoutNames, s);
}
std::optional<Boundary> parse_boundary(std::string_view s) {
  return parse_in(kBoundaryNames, s);
}
std::optional<LaunchOrder> parse_launch_order(std::string_view s) {
  return parse_in(kOrderNames, s);
}
std::optional<InputPrecision> parse_input_precision(std::string_view s) {
  return parse_in(kPrecisionNames, s);
}

template <class E>
std::string allowed_names() {
  return join_names(names<E>());
}

template <class E>
E parse_field(std::string_view field, std::string_view value) {
  const std::optional<E> e = parse_in(names<E>(), value);
  if (!e) throw unknown_value(field, value, allowed_names<E>());
  return *e;
}

template std::string allowed_names<Kernel>();
template std::string allowed_names<DType>();
template std::string allowed_names<BLayout>();
template std::string allowed_names<Boundary>();
template std::string allowed_names<LaunchOrder>();
template std::string allowed_names<InputPrecision>();
template Kernel parse_field<Kernel>(std::string_view, std::string_view);
template DType parse_field<DType>(std::string_view, std::string_view);
template BLayout parse_field<BLayout>(std::string_view, std::string_view);
template Boundary parse_field<Boundary>(std::string_view, std::string_view);
template LaunchOrder parse_field<LaunchOrder>(std::string_view, std::string_view);
template InputPrecision parse_field<InputPrecision>(std::string_view, std::string_view);

std::int64_t cdiv(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

Problem::Problem(const ProblemSpec& spec) : Problem(spec, nullptr) {}

Problem::Problem(const ProblemSpec& spec, std::shared_ptr<const ProgramPlan> plan)
    : m_spec(spec), m_plan(std::move(plan)) {
  check_enum("kernel", spec.kernel);
  check_enum("dtype", spec.dtype);
  check_enum("b_layout", spec.b_layout);
  check_enum("boundary", spec.boundary);
  check_enum("order", spec.order);
  check_enum("input_precision", spec.input_precision);
  check_range("m", spec.m, 1, kMaxDim);
  check_range("n", spec.n, 1, kMaxDim);
  if (spec.kernel == Kernel::matmul) check_range("k", spec.k, 1, kMaxDim);
  check_block("block_m", "M", spec.block_m, spec.m);
  check_block("block_n", "N", spec.block_n, spec.n);
  if (spec.kernel == Kernel::matmul) check_block("block_k", "K", spec.block_k, spec.k);
  check_range("group_size_m", spec.group_size_m, 1, kMaxGroupSizeM);
  check_range("stages", spec.stages, 1, kMaxStages);
  const int w = spec.num_warps;
  if (w < 1 || w > kMaxNumWarps || (w & (w - 1)) != 0)
    throw InvalidField("num_warps", "num_warps = " + std::to_string(w) +
                                        " is not allowed: a power of two in 1.." +
                                        std::to_string(kMaxNumWarps));
  // Read once per process from the built-in listing (after the checks: only a valid kernel,
  // boundary and order name one).
  if (!m_plan) m_plan = builtin_plan(spec.kernel, spec.boundary, spec.order);
  if (m_plan->kernel != spec.kernel)
    throw InvalidField("kernel", "the program plan is a " + std::string(to_string(m_plan->kernel)) +
                                     "'s, the problem a " + std::string(to_string(spec.kernel)) +
                                     "'s");
}

int Problem::elem_bytes() const {
  return m_spec.dtype == DType::fp32 ? 4 : 2;
}
std::int64_t Problem::tiles_m() const {
  return cdiv(m_spec.m, m_spec.block_m);
}
std::int64_t Problem::tiles_n() const {
  return cdiv(m_spec.n, m_spec.block_n);
}
std::int64_t Problem::k_tiles() const {
  return m_spec.kernel == Kernel::matmul ? cdiv(m_spec.k, m_spec.block_k) : 0;
}

MatrixShape Problem::shape(Operand op) const {
  const auto M = m_spec.m, N = m_spec.n, K = m_spec.k;
  switch (m_spec.kernel) {
    case Kernel::copy:
      return {M, N, N, 1};
    case Kernel::transpose:
      // in: (M, N) with strides (N, 1); out: (N, M) with strides (M, 1), as in seed 000's solve().
      return op == Operand::c ? MatrixShape{N, M, M, 1} : MatrixShape{M, N, N, 1};
    case Kernel::matmul:
      if (op == Operand::a) return {M, K, K, 1};
      if (op == Operand::b)
        return m_spec.b_layout == BLayout::row_major ? MatrixShape{K, N, N, 1}
                                                     : MatrixShape{K, N, 1, K};
      return {M, N, N, 1};
  }
  return {};
}

std::uint64_t Problem::base_address(Operand op) const {
  constexpr std::uint64_t kAlign = 4096;
  const auto bytes = [&](Operand o) {
    return align_up(static_cast<std::uint64_t>(shape(o).elements()) * elem_bytes(), kAlign);
  };
  const bool has_b = m_spec.kernel == Kernel::matmul;
  switch (op) {
    case Operand::a:
      return 0;
    case Operand::b:
      return bytes(Operand::a);
    case Operand::c:
      return bytes(Operand::a) + (has_b ? bytes(Operand::b) : 0);
  }
  return 0;
}

std::uint64_t Problem::address_space_bytes() const {
  return base_address(Operand::c) +
         align_up(static_cast<std::uint64_t>(shape(Operand::c).elements()) * elem_bytes(), 4096);
}

double Problem::useful_flops() const {
  if (m_spec.kernel != Kernel::matmul) return 0.0;
  return 2.0 * static_cast<double>(m_spec.m) * static_cast<double>(m_spec.n) *
         static_cast<double>(m_spec.k);
}

Throughput throughput(const Problem& p, double seconds) {
  if (p.kernel() == Kernel::matmul)
    return {seconds > 0 ? p.useful_flops() / seconds / 1e12 : 0.0, "TFLOP/s"};
  const double bytes =
      2.0 * static_cast<double>(p.spec().m) * static_cast<double>(p.spec().n) * p.elem_bytes();
  return {seconds > 0 ? bytes / seconds / 1e9 : 0.0, "GB/s"};
}

double Problem::compulsory_bytes() const {
  const double e = elem_bytes();
  const double out = static_cast<double>(shape(Operand::c).elements()) * e;
  double in = static_cast<double>(shape(Operand::a).elements()) * e;
  if (m_spec.kernel == Kernel::matmul) in += static_cast<double>(shape(Operand::b).elements()) * e;
  return in + out;
}

}  // namespace tilesim::sim
