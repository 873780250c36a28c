// Warp-level access counts of a whole kernel or one program: picks the variant's thread program
// (thread_programs.hpp), counts its sectors and bank wavefronts per request, and memoises the
// counts per tile pattern (interior programs share one).
#include "sim/warps/warp_access.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "sim/base/enum_names.hpp"
#include "sim/program/launch_order.hpp"
#include "sim/warps/thread_programs.hpp"

namespace tilesim::sim {
namespace {

using namespace thread_programs;

bool is_fma(ThreadVariant v) {
  return v == ThreadVariant::matmul_fma_b_rowmajor ||
         v == ThreadVariant::matmul_fma_bt_conflicting || v == ThreadVariant::matmul_fma_bt_padded;
}

// What makes two programs count the same: the in-range part of their tile and where each operand
// tile starts within a sector (row pitches are fixed per problem, so a shift by whole sectors
// changes no count).
using PatternKey = std::array<std::int64_t, 5>;

PatternKey pattern_of(const Problem& p, TileCoord t) {
  const std::int64_t bm = p.block_m(), bn = p.block_n(), e = p.elem_bytes();
  const std::int64_t row0 = t.pid_m * bm, col0 = t.pid_n * bn;
  const std::int64_t rows = std::min<std::int64_t>(bm, p.m() - row0);
  const std::int64_t cols = std::min<std::int64_t>(bn, p.n() - col0);
  const auto sector_offset = [&](std::int64_t element) { return element * e % kSectorBytes; };
  switch (p.kernel()) {
    case Kernel::copy:
      return {rows, cols, sector_offset(row0 * p.n() + col0), 0, 0};
    case Kernel::transpose:
      return {rows, cols, sector_offset(row0 * p.n() + col0), sector_offset(col0 * p.m() + row0),
              0};
    case Kernel::matmul: {
      const bool bt = p.spec().b_layout == BLayout::transposed;
      return {rows, cols, sector_offset(row0 * p.k()), sector_offset(bt ? col0 * p.k() : col0),
              sector_offset(row0 * p.n() + col0)};
    }
  }
  return {};
}

}  // namespace

constexpr enum_names::Table<ThreadVariant, 8> kThreadVariantNames{
    {{ThreadVariant::copy_tiled, "copy_tiled"},
     {ThreadVariant::transpose_naive, "transpose_naive"},
     {ThreadVariant::transpose_smem_tiled, "transpose_smem_tiled"},
     {ThreadVariant::transpose_smem_padded, "transpose_smem_padded"},
     {ThreadVariant::matmul_smem_tiled, "matmul_smem_tiled"},
     {ThreadVariant::matmul_fma_b_rowmajor, "matmul_fma_b_rowmajor"},
     {ThreadVariant::matmul_fma_bt_conflicting, "matmul_fma_bt_conflicting"},
     {ThreadVariant::matmul_fma_bt_padded, "matmul_fma_bt_padded"}}};

std::string_view to_string(ThreadVariant v) {
  return enum_names::name_of(kThreadVariantNames, v);
}

std::optional<ThreadVariant> parse_thread_variant(std::string_view name) {
  if (const auto v = enum_names::parse_in(kThreadVariantNames, name)) return v;
  if (name == "matmul_smem_tiled_b_transposed") return ThreadVariant::matmul_smem_tiled;
  return std::nullopt;
}

bool variant_fits(ThreadVariant v, Kernel k) {
  switch (v) {
    case ThreadVariant::copy_tiled:
      return k == Kernel::copy;
    case ThreadVariant::matmul_smem_tiled:
    case ThreadVariant::matmul_fma_b_rowmajor:
    case ThreadVariant::matmul_fma_bt_conflicting:
    case ThreadVariant::matmul_fma_bt_padded:
      return k == Kernel::matmul;
    default:
      return k == Kernel::transpose;
  }
}

std::vector<ThreadVariant> thread_variants(Kernel k) {
  std::vector<ThreadVariant> out;
  for (const auto& [v, name] : kThreadVariantNames)
    if (variant_fits(v, k)) out.push_back(v);
  return out;
}

double WarpAccessCounters::ld_sectors_per_request() const {
  return global_ld_requests ? static_cast<double>(global_ld_sectors) / global_ld_requests : 0.0;
}
double WarpAccessCounters::st_sectors_per_request() const {
  return global_st_requests ? static_cast<double>(global_st_sectors) / global_st_requests : 0.0;
}

double WarpAccessCounters::ld_conflicts_per_request() const {
  return shared_ld_requests ? static_cast<double>(shared_ld_conflicts()) / shared_ld_requests : 0.0;
}
double WarpAccessCounters::st_conflicts_per_request() const {
  return shared_st_requests ? static_cast<double>(shared_st_conflicts()) / shared_st_requests : 0.0;
}

WarpAccessCounters& WarpAccessCounters::operator+=(const WarpAccessCounters& o) {
  global_ld_requests += o.global_ld_requests;
  global_ld_sectors += o.global_ld_sectors;
  global_st_requests += o.global_st_requests;
  global_st_sectors += o.global_st_sectors;
  shared_ld_requests += o.shared_ld_requests;
  shared_ld_wavefronts += o.shared_ld_wavefronts;
  shared_st_requests += o.shared_st_requests;
  shared_st_wavefronts += o.shared_st_wavefronts;
  return *this;
}

WarpAccessCounters WarpAccessCounters::operator*(std::int64_t n) const {
  WarpAccessCounters r = *this;
  for (auto* f : {&r.global_ld_requests, &r.global_ld_sectors, &r.global_st_requests,
                  &r.global_st_sectors, &r.shared_ld_requests, &r.shared_ld_wavefronts,
                  &r.shared_st_requests, &r.shared_st_wavefronts})
    *f *= n;
  return r;
}

std::int64_t sectors_of_request(std::span<const std::uint64_t> addresses, int bytes) {
  std::array<std::uint64_t, 2 * kWarpSize> s{};
  std::size_t n = 0;
  for (auto a : addresses) {
    s[n++] = a / kSectorBytes;
    const auto last = (a + bytes - 1) / kSectorBytes;
    if (last != a / kSectorBytes && n < s.size()) s[n++] = last;
  }
  std::sort(s.begin(), s.begin() + n);
  return std::unique(s.begin(), s.begin() + n) - s.begin();
}

std::int64_t wavefronts_of_request(std::span<const std::uint64_t> addresses, int bytes) {
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16)
    throw std::invalid_argument("a shared-memory lane access is 1, 2, 4, 8 or 16 bytes, not " +
                                std::to_string(bytes));
  if (addresses.size() > static_cast<std::size_t>(kWarpSize))
    throw std::invalid_argument("a warp request has at most 32 lanes");
  // A phase moves at most 32 words (128 bytes): all 32 lanes at 4 bytes or less, 16 lanes at 8,
  // 8 lanes at 16. Each phase costs its own wavefronts: the most distinct words in one bank.
  const int words_per_lane = std::max(1, bytes / 4);
  const std::size_t lanes_per_phase = kWarpSize / words_per_lane;
  std::int64_t total = 0;
  for (std::size_t first = 0; first < addresses.size(); first += lanes_per_phase) {
    const std::size_t last = std::min(addresses.size(), first + lanes_per_phase);
    std::array<std::uint64_t, kWarpSize> words{};  // (lanes_per_phase, words_per_lane)
    std::size_t n = 0;
    for (std::size_t lane = first; lane < last; ++lane)
      for (int w = 0; w < words_per_lane; ++w) words[n++] = addresses[lane] / 4 + w;
    std::sort(words.begin(), words.begin() + n);
    n = std::unique(words.begin(), words.begin() + n) - words.begin();
    std::array<int, kSharedBanks> per_bank{};
    int worst = 0;
    for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, ++per_bank[bank_of(words[i] * 4)]);
    total += worst;
  }
  return total;
}

ProblemSpec model_spec(ThreadVariant v, ProblemSpec spec) {
  if (!is_fma(v)) return spec;
  spec.block_m = kFmaBlockM;
  spec.block_n = kFmaBlockN;
  spec.block_k = kFmaBlockK;
  spec.dtype = DType::fp32;
  spec.b_layout =
      v == ThreadVariant::matmul_fma_b_rowmajor ? BLayout::row_major : BLayout::transposed;
  return spec;
}

int threads_per_program(const Problem& p, ThreadVariant v) {
  if (is_fma(v)) return kFmaThreads;
  const int tile = p.block_m() * p.block_n();
  if (v == ThreadVariant::matmul_smem_tiled) return std::min(1024, std::max(32, tile / 16));
  return std::min(256, std::max(32, tile));
}

WarpAccessCounters warp_access_program(const Problem& problem, ThreadVariant v, std::int64_t pid) {
  WarpAccessCounters c;
  if (!variant_fits(v, problem.kernel())) return c;
  const Problem p(model_spec(v, problem.spec()));
  Tally tally{&c, p.elem_bytes()};
  const Program g{p, tile_of(p, pid), threads_per_program(p, v)};
  switch (v) {
    case ThreadVariant::copy_tiled:
      run_elementwise(g, false, tally);
      break;
    case ThreadVariant::transpose_naive:
      run_elementwise(g, true, tally);
      break;
    case ThreadVariant::transpose_smem_tiled:
      run_transpose_smem(g, false, tally);
      break;
    case ThreadVariant::transpose_smem_padded:
      run_transpose_smem(g, true, tally);
      break;
    case ThreadVariant::matmul_smem_tiled:
      run_matmul_smem(g, tally);
      break;
    case ThreadVariant::matmul_fma_b_rowmajor:
    case ThreadVariant::matmul_fma_bt_conflicting:
    case ThreadVariant::matmul_fma_bt_padded:
      run_matmul_fma(g, v, tally);
      break;
  }
  return c;
}

WarpAccessCounters warp_access(const Problem& problem, ThreadVariant v) {
  const Problem p(model_spec(v, problem.spec()));
  if (p.programs() > kMaxWarpPrograms)
    throw std::invalid_argument("the warp model walks every program, and this grid has " +
                                std::to_string(p.programs()) + " (more than " +
                                std::to_string(kMaxWarpPrograms) + "): use larger blocks");
  // The launch order changes which SM runs a tile, not what its warps issue: count by tile.
  std::map<PatternKey, std::pair<std::int64_t, std::int64_t>> patterns;  // key -> (pid, count)
  for (std::int64_t pid = 0; pid < p.programs(); ++pid) {
    auto [it, fresh] = patterns.try_emplace(pattern_of(p, tile_of(p, pid)), pid, 0);
    ++it->second.second;
  }
  WarpAccessCounters total;
  for (const auto& [key, pid_count] : patterns)
    total += warp_access_program(p, v, pid_count.first) * pid_count.second;
  return total;
}

}  // namespace tilesim::sim
