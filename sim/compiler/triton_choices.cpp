// Triton's choices (sim/compiler/triton_choices.hpp): the rules, each with what in Triton 3.6's
// output shows it (assets/measured/triton_*.json, docs/TRITON_FINDINGS.md).
#include "sim/compiler/triton_choices.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>

#include "sim/base/enum_names.hpp"
#include "sim/compiler/fma_dot_reads.hpp"

namespace tilesim::sim {
namespace {

constexpr int kVectorBytes = 16;  // the widest global access a thread makes (128 bits)
constexpr int kLineBytes = 128;   // an L1/L2 line: the unit a warp access's tag lookups count
constexpr int kBanks = 32;        // shared memory: 32 banks of 4 bytes
constexpr int kWarpLanes = 32;
constexpr int kMaxThreadRegisters = 255;  // CUDA's limit per thread since Kepler

// Triton's warpsPerCTA for an NVMMA v3 (wgmma) accumulator: a warpgroup of 4 along M first,
// doubled along M while the tile has 16-row slices left for it, then along N.
std::pair<int, int> wgmma_warps(int block_m, int num_warps) {
  int wm = 4;
  while (wm < num_warps && block_m / 16 > wm) wm *= 2;
  return {wm, std::max(1, num_warps / wm)};
}

// The n of the wgmma instruction (m64nNk16): the block's columns over the warps along N.
int wgmma_n(const Problem& p) {
  const int wn = wgmma_warps(p.block_m(), p.num_warps()).second;
  return std::min(256, std::max(8, p.block_n() / wn));
}

std::string type_name(DType d, MathPath path) {
  if (d == DType::fp32) return path == MathPath::fma ? "f32" : "tf32";
  return d == DType::bf16 ? "bf16" : "f16";
}

// The NVMMA swizzle (wgmma operands): the 16-byte chunk index within each `swizzle`-byte segment
// is XORed with the 128-byte row index (address bits [4, 4 + log2(swizzle / 16)) ^= bits [7, ..)),
// so that a column of 16-byte chunks lands in different banks.
std::int64_t swizzled(std::int64_t addr, int swizzle) {
  if (swizzle < 32) return addr;
  const std::int64_t mask = swizzle / 16 - 1;
  return addr ^ (((addr >> 7) & mask) << 4);
}

// Distinct 4-byte words that fall in one bank, at worst (at least 1): the passes a warp access's
// words take through 32 banks, each serving one word a cycle.
std::size_t worst_bank_ways(const std::array<std::set<std::int64_t>, kBanks>& words) {
  std::size_t worst = 1;
  for (const auto& w : words) worst = std::max(worst, w.size());
  return worst;
}

// The wavefronts one warp access's write into shared memory takes: each bank serves one 4-byte
// word per cycle (lanes writing the same word share it), and a warp moves at most 128 bytes a
// cycle. (i, j): the tile element a lane's access starts at, j along the global contiguous
// dimension; the smem tile keeps j contiguous unless `transposed`.
double smem_wavefronts(const OperandChoice& o, int elem_bytes) {
  // A 4-byte cp.async (an element copy, transposed or not) fills shared memory half a warp at a
  // time: each half's conflicts are its own, and the two halves add (ncu: 15-19 wavefronts a copy
  // for tf32's K-major B at BLOCK_N = 64 and 128 alike,
  // assets/measured/ncu_tf32_b_staging_h100.csv; counted over the whole warp, lanes of two K rows
  // at BLOCK_N = 64 would share 8; the 4095^3 tf32 tutorial's row-major 4-byte copies take more
  // than the warp-wide 1 each: ncu's 1,714 a program a K step against this count's 512,
  // triton_h100.json).
  const int group =
      o.path == LoadPath::cp_async && o.access_bytes == 4 ? kWarpLanes / 2 : kWarpLanes;
  const std::int64_t ext_i = o.contiguous_cols ? o.rows : o.cols;
  const std::int64_t ext_j = o.contiguous_cols ? o.cols : o.rows;
  // A thread's layout_elems consecutive elements go out in copies of vector_elems: average the
  // wavefronts over those copies (the first element of each, then the rest of its vector).
  const int copies = std::max(1, o.layout_elems / std::max(1, o.vector_elems));
  const double bytes = static_cast<double>(group) * o.access_bytes;
  // The tile in shared memory: its rows and their bytes. NVMMA's layout keeps a row to its
  // swizzle's width: a wider tile is stored as column blocks of `swizzle` bytes, one after the
  // other, each all its rows tall.
  const std::int64_t row_bytes = (o.smem_transposed ? ext_i : ext_j) * elem_bytes;
  const std::int64_t rows_in_smem = o.smem_transposed ? ext_j : ext_i;
  const std::int64_t span =
      o.swizzle_bytes >= 32 && row_bytes > o.swizzle_bytes ? o.swizzle_bytes : row_bytes;
  double total = 0;
  for (int copy = 0; copy < copies; ++copy)
    for (int lane0 = 0; lane0 < kWarpLanes; lane0 += group) {
      std::array<std::set<std::int64_t>, kBanks> words;
      for (int lane = lane0; lane < lane0 + group; ++lane) {
        std::int64_t i = 0, j = 0;
        if (o.lanes_along_contiguous) {
          i = lane / o.threads_along_cols;
          j = std::int64_t{lane % o.threads_along_cols} * o.layout_elems;
        } else {
          i = lane % o.threads_along_rows;
          j = std::int64_t{lane / o.threads_along_rows} * o.layout_elems;
        }
        i %= std::max<std::int64_t>(1, ext_i);
        j = (j + std::int64_t{copy} * o.vector_elems) % std::max<std::int64_t>(1, ext_j);
        for (int v = 0; v < o.vector_elems; ++v) {
          const std::int64_t jj = j + v;
          // The element's row in shared memory and its byte in that row, swizzled on its
          // address bits.
          const std::int64_t r = o.smem_transposed ? jj : i;
          const std::int64_t cb = (o.smem_transposed ? i : jj) * elem_bytes;
          const std::int64_t addr = cb / span * (rows_in_smem * span) + r * span + cb % span;
          const std::int64_t word = swizzled(addr, o.swizzle_bytes) / 4;
          words[static_cast<std::size_t>(word % kBanks)].insert(word);
        }
      }
      total +=
          std::max(static_cast<double>(worst_bank_ways(words)), std::ceil(bytes / (kBanks * 4)));
    }
  return total / copies;
}

// The 32-byte sectors one warp access touches. Each of its threads_along_rows rows is a
// contiguous span of its threads_along_cols lanes' bytes (lanes across rows: usually one lane's)
// starting at row * stride + column * span bytes from a base Triton assumes 16-byte aligned
// (PyTorch's are 256-byte aligned): over many rows and columns those starts fall evenly on the
// multiples of g = gcd(stride, span, 32) within a sector (gcd(0, 32) = 32: aligned), and a span
// starting o bytes into one touches ceil((o + span) / 32).
enum class SectorCount { touched, partial };

// The `unit`-byte pieces (32-byte sectors, 128-byte lines), or the partial ones, that `span`
// contiguous bytes touch, averaged over where they start within a piece: rows `stride_bytes`
// apart start at multiples of g = gcd(stride, span, unit); `aligned`: every row starts on a
// piece.
double span_units(std::int64_t span, std::int64_t stride_bytes, bool aligned, SectorCount what,
                  std::int64_t unit) {
  std::int64_t g = std::gcd(std::gcd(stride_bytes % unit, span % unit), unit);
  if (aligned) g = unit;  // every row starts on a piece
  double sum = 0;
  for (std::int64_t off = 0; off < unit; off += g) {
    if (what == SectorCount::touched) {
      sum += static_cast<double>((off + span + unit - 1) / unit);
      continue;
    }
    // The first piece is partial when the access starts inside it, the last when it ends
    // inside it; one piece both ways counts once.
    const bool first = off != 0, last = (off + span) % unit != 0;
    sum += (off + span <= unit) ? (first || last ? 1 : 0) : (first ? 1 : 0) + (last ? 1 : 0);
  }
  return sum / static_cast<double>(unit / g);
}

double span_sectors(std::int64_t span, std::int64_t stride_bytes, bool aligned, SectorCount what) {
  return span_units(span, stride_bytes, aligned, what, 32);
}

// A warp access's contiguous bytes in one row: its lanes along the row times their width.
std::int64_t access_span(const OperandChoice& o) {
  return std::int64_t{o.threads_along_cols} * o.access_bytes *
         std::max(1, o.layout_elems / std::max(1, o.vector_elems));
}

double global_sectors(const OperandChoice& o, int elem_bytes, bool aligned = false,
                      SectorCount what = SectorCount::touched) {
  return o.threads_along_rows *
         span_sectors(access_span(o), o.leading_stride * elem_bytes, aligned, what);
}

// 128-byte lines one warp access touches in global memory. Lanes along the contiguous dimension
// read their row's access_span bytes; averaged over where the rows start within a line (as the
// sectors are: fp32 rows 4100 elements apart start 16 bytes apart, so a 128-byte chunk touches
// 1.875 lines; 4104 apart, 32 bytes: 1.75; 8190 apart, 8 bytes: 1.94). `aligned`: rows that
// start on a line. Lanes across rows touch a line each.
double global_lines(const OperandChoice& o, bool aligned = false) {
  if (!o.lanes_along_contiguous) return kWarpLanes;
  const std::int64_t elem_bytes = o.access_bytes / std::max(1, o.vector_elems);
  return o.threads_along_rows *
         std::max(1.0, span_units(access_span(o), o.leading_stride * elem_bytes, aligned,
                                  SectorCount::touched, kLineBytes));
}

// The L1 data-bank conflict of a warp access whose lanes run across rows (OperandChoice::
// l1_bank_ways): the most lanes whose words, one per row, fall in the same 4-byte bank.
int l1_bank_ways(const OperandChoice& o, int elem_bytes) {
  if (o.lanes_along_contiguous) return 1;
  // Lane l reads row l % rows, column l / rows (fewer rows than lanes: BLOCK_K = 16 puts lanes
  // 16-31 on the next column of the same rows, whose words can share a bank with another row's).
  std::array<std::set<std::int64_t>, kBanks> words;
  const int rows = std::max(1, o.threads_along_rows);
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    const std::int64_t byte =
        (std::int64_t{lane % rows} * o.leading_stride + lane / rows) * elem_bytes;
    words[static_cast<std::size_t>(byte / 4 % kBanks)].insert(byte / 4);
  }
  return static_cast<int>(worst_bank_ways(words));
}

// Triton's default blocked layout for a tile access of `vec` elements a thread: threads of a
// warp along the contiguous dimension first, as many as its extent takes, the rest across.
void lay_out_threads(OperandChoice* o) {
  const std::int64_t contig = o->contiguous_cols ? o->cols : o->rows;
  const std::int64_t other = o->contiguous_cols ? o->rows : o->cols;
  if (o->lanes_along_contiguous) {
    const int along =
        static_cast<int>(std::clamp<std::int64_t>(contig / o->layout_elems, 1, kWarpLanes));
    o->threads_along_cols = along;
    o->threads_along_rows = kWarpLanes / along;
  } else {
    const int across = static_cast<int>(std::clamp<std::int64_t>(other, 1, kWarpLanes));
    o->threads_along_rows = across;
    o->threads_along_cols = kWarpLanes / across;
  }
}

}  // namespace

double extra_lines_per_access(const OperandChoice& o) {
  return std::max(0.0, global_lines(o) - global_lines(o, true));
}

double store_sector_cost(const OperandChoice& o, double partial_cost) {
  if (o.aligned_sectors_per_access <= 0) return 1;
  const double whole = o.sectors_per_access - o.partial_sectors_per_access;
  return (whole + partial_cost * o.partial_sectors_per_access) / o.aligned_sectors_per_access;
}

double store_sector_weight(const OperandChoice& o, double partial_cost) {
  if (o.row_sectors <= 0 || o.threads_along_rows <= 0) return 1;
  // A row of the tile takes row_span / span warp-access pieces, each piece's sectors as the warp
  // access sends them (a sector two pieces share is sent twice, once by each).
  const double whole = o.sectors_per_access - o.partial_sectors_per_access;
  const double per_piece = (whole + partial_cost * o.partial_sectors_per_access) /
                           static_cast<double>(o.threads_along_rows);
  return per_piece * o.pieces_per_row / o.row_sectors;
}

namespace {

std::string stride_name(const Problem& p, Operand op) {
  if (p.kernel() != Kernel::matmul)
    return op == Operand::c && p.kernel() == Kernel::transpose ? "M" : "N";
  if (op == Operand::a) return "K";
  if (op == Operand::b) return p.spec().b_layout == BLayout::transposed ? "K" : "N";
  return "N";
}

std::int64_t stride_value(const Problem& p, Operand op) {
  const std::string n = stride_name(p, op);
  return n == "M" ? p.m() : n == "K" ? p.k() : p.n();
}

}  // namespace

constexpr enum_names::Table<MathPath, 3> kMathPathNames{
    {{MathPath::fma, "fma"}, {MathPath::mma_sync, "mma.sync"}, {MathPath::wgmma, "wgmma"}}};

std::string_view to_string(MathPath p) {
  return enum_names::name_of(kMathPathNames, p);
}

std::optional<MathPath> parse_math_path(std::string_view s) {
  for (const MathPath p : {MathPath::fma, MathPath::mma_sync, MathPath::wgmma})
    if (s == to_string(p)) return p;
  return std::nullopt;
}

std::string_view to_string(LoadPath p) {
  return p == LoadPath::cp_async ? "cp.async" : "ld.global";
}

MathPath triton_dot_path(const Problem& p, const Machine& m) {
  if (p.kernel() != Kernel::matmul) return MathPath::fma;
  const bool fp32 = p.spec().dtype == DType::fp32;
  if (fp32 && (p.spec().input_precision == InputPrecision::ieee || m.tf32_tensor_flops_per_s <= 0))
    return MathPath::fma;
  if (m.has_wgmma && p.num_warps() % 4 == 0 && p.block_m() >= 64) return MathPath::wgmma;
  return MathPath::mma_sync;
}

TritonChoices triton_choices(const Problem& p, const Machine& m) {
  TritonChoices t;
  t.matmul = p.kernel() == Kernel::matmul;
  t.dot = triton_dot_path(p, m);
  const int e = p.elem_bytes();
  const std::int64_t threads = p.threads_per_program();
  const int stages = p.spec().stages;
  const bool b_t = p.spec().b_layout == BLayout::transposed;
  const bool wrap = p.boundary() == Boundary::wrap;

  const auto make = [&](Operand op, std::int64_t rows, std::int64_t cols, bool contiguous_cols) {
    OperandChoice o;
    o.operand = op;
    o.rows = rows, o.cols = cols;
    o.contiguous_cols = contiguous_cols;
    o.leading_stride = stride_value(p, op);
    o.divisible_by_16 = o.leading_stride % 16 == 0;
    const std::int64_t contig = contiguous_cols ? cols : rows;
    const std::int64_t per_thread = std::max<std::int64_t>(1, rows * cols / threads);
    o.vector_elems =
        o.divisible_by_16
            ? static_cast<int>(std::min<std::int64_t>({kVectorBytes / e, contig, per_thread}))
            : 1;
    o.layout_elems = o.vector_elems;
    return o;
  };

  if (t.matmul) {
    t.a = make(Operand::a, p.block_m(), p.block_k(), true);
    t.b = make(Operand::b, p.block_k(), p.block_n(), !b_t);
    t.c = make(Operand::c, p.block_m(), p.block_n(), true);
  } else {
    t.a = make(Operand::a, p.block_m(), p.block_n(), true);
    if (p.kernel() == Kernel::transpose)
      t.c = make(Operand::c, p.block_n(), p.block_m(), true);
    else
      t.c = make(Operand::c, p.block_m(), p.block_n(), true);
  }

  if (t.matmul) {
    // A row-major B whose columns wrap (% N, the tutorial and seed 001) with N not a multiple of
    // 16: Triton cannot prove two neighbouring columns are contiguous (AxisInfo's contiguity of
    // (x % N) is 1), nor the rows (stride N), and its coalescing pass then orders the lanes along
    // K: each lane reads its own row (TTGIR #blocked order [0, 1], threadsPerWarp [32, 1]).
    if (!b_t && wrap && !t.b.divisible_by_16) t.b.lanes_along_contiguous = false;
    // The tf32 tensor cores take B K-major only: a row-major B tile is stored transposed in
    // shared memory, and a 16-byte vector along N cannot be written as one: 4-byte copies.
    const bool tensor = t.dot != MathPath::fma;
    const bool b_kmajor = b_t || (t.dot == MathPath::wgmma && p.spec().dtype == DType::fp32) ||
                          (t.dot == MathPath::wgmma && !t.b.lanes_along_contiguous);
    // (Through registers, num_stages = 1, the global load keeps its width: the transposing
    // happens in the st.shared that follows.)
    if (b_kmajor && !b_t) {
      t.b.smem_transposed = true;
      if (t.b.lanes_along_contiguous && m.has_cp_async && stages > 1) t.b.vector_elems = 1;
    }
    for (OperandChoice* o : {&t.a, &t.b}) {
      o->access_bytes = o->vector_elems * e;
      const bool async = m.has_cp_async && stages > 1 && o->access_bytes >= 4;
      o->path = async ? LoadPath::cp_async : LoadPath::ld_global;
      // cp.async tiles: num_stages buffers on the wgmma path, one fewer on FMA and mma.sync
      // (TTGIR shared allocations [s, ...] vs [s - 1, ...]); a register-staged operand: one
      // buffer, not pipelined.
      o->buffers = async ? (t.dot == MathPath::wgmma ? stages : std::max(1, stages - 1)) : 1;
      if (tensor && t.dot == MathPath::wgmma) {
        const std::int64_t smem_contig =
            (o->smem_transposed ? (o->contiguous_cols ? o->rows : o->cols)
                                : (o->contiguous_cols ? o->cols : o->rows)) *
            e;
        o->swizzle_bytes = static_cast<int>(std::min<std::int64_t>(128, smem_contig));
        if (o->swizzle_bytes < 32) o->swizzle_bytes = 0;
      }
      lay_out_threads(o);
      o->lines_per_access = global_lines(*o);
      o->sectors_per_access = global_sectors(*o, e);
      o->l1_bank_ways = l1_bank_ways(*o, e);
      o->smem_wavefronts_per_access = smem_wavefronts(*o, e);
      if (o->path == LoadPath::ld_global && o->smem_transposed && o->vector_elems > 1) {
        // Through registers the transposing happens in the st.shared: a thread's vector goes
        // to vector_elems different K rows, one element store each, with its layout's bank
        // conflicts counted over the whole warp (an st.shared's; the half-warp count is a
        // cp.async's). At BLOCK_N = 128 that is the pipelined tile's 16 a store (ncu, tf32
        // 128 x 128 x 32 at 7168^3: 2,667 shared wavefronts a program a K step at one stage,
        // 2,579 at three; assets/measured/triton_supplement_h100.json); BLOCK_N = 64 at one
        // stage (8 a store here) is unmeasured.
        OperandChoice q = *o;
        q.layout_elems = o->vector_elems;
        q.vector_elems = 1;
        q.access_bytes = e;
        o->smem_wavefronts_per_access = o->vector_elems * smem_wavefronts(q, e);
      }
      o->warp_accesses =
          std::max<std::int64_t>(1, o->rows * o->cols / (kWarpLanes * o->vector_elems));
      if (o->path == LoadPath::cp_async)
        t.pipeline_buffers = std::max(t.pipeline_buffers, o->buffers);
    }
  } else {
    t.a.access_bytes = t.a.vector_elems * e;
    lay_out_threads(&t.a);
    t.a.lines_per_access = global_lines(t.a);
    t.a.sectors_per_access = global_sectors(t.a, e);
    t.a.warp_accesses =
        std::max<std::int64_t>(1, t.a.rows * t.a.cols / (kWarpLanes * t.a.vector_elems));
  }
  t.c.access_bytes = t.c.vector_elems * e;
  lay_out_threads(&t.c);
  t.c.lines_per_access = global_lines(t.c);
  t.c.sectors_per_access = global_sectors(t.c, e);
  t.c.partial_sectors_per_access = global_sectors(t.c, e, false, SectorCount::partial);
  t.c.aligned_sectors_per_access = global_sectors(t.c, e, true);
  {
    const std::int64_t row_span = (t.c.contiguous_cols ? t.c.cols : t.c.rows) * e;
    t.c.row_sectors = span_sectors(row_span, t.c.leading_stride * e, false, SectorCount::touched);
    t.c.pieces_per_row =
        std::max(1.0, static_cast<double>(row_span) / static_cast<double>(access_span(t.c)));
  }
  t.c.warp_accesses =
      std::max<std::int64_t>(1, t.c.rows * t.c.cols / (kWarpLanes * t.c.vector_elems));
  if (t.matmul && t.dot == MathPath::wgmma)
    t.epilogue_scratch_bytes =
        p.block_m() *
        std::min<std::int64_t>(p.block_n(),
                               std::int64_t{kEpilogueScratchColumnsPerWarp} * p.num_warps()) *
        e;

  // An FMA dot's reads. B's tile is K-major in shared memory when B is stored transposed, or when
  // its lanes run across rows (TTGIR #shared order [0, 1] in both cases).
  if (t.matmul && t.dot == MathPath::fma)
    t.fma =
        fma_dot_reads(p, p.spec().b_layout == BLayout::transposed || !t.b.lanes_along_contiguous,
                      m.smem_wide_loads_in_passes);

  // The dot instruction.
  if (t.matmul) {
    const std::string ty = type_name(p.spec().dtype, t.dot);
    if (t.dot == MathPath::wgmma) {
      t.dot_instruction = "wgmma.m64n" + std::to_string(wgmma_n(p)) + "k" +
                          (ty == "tf32" ? "8" : "16") + ".f32." + ty + "." + ty;
    } else if (t.dot == MathPath::mma_sync) {
      t.dot_instruction =
          std::string("mma.sync.m16n8k") + (ty == "tf32" ? "8" : "16") + ".f32." + ty + "." + ty;
    } else {
      t.dot_instruction = "fma.rn.f32";
    }
  }

  // ptxas's serialised wgmmas (TritonChoices::wgmma_serialized: a census, not a mechanism).
  {
    const ProblemSpec& s = p.spec();
    t.wgmma_serialized = t.dot == MathPath::wgmma && s.dtype == DType::fp32 &&
                         s.b_layout == BLayout::transposed && p.num_warps() == 8 &&
                         p.block_n() <= 128 && s.m % 16 == 0 && s.n % 16 == 0 && s.k % 16 == 0;
  }

  // Registers a thread needs: its fp32 accumulator (more than one register per value: ptxas
  // keeps copies across the wgmma's asynchronous issue), and per tile access the pointer, mask
  // and (ld.global) the values it stages through registers; an FMA dot also holds the operands
  // of its outer products. Least squares over the fit set's ptxas counts (docs/TRITON_SPLIT.md,
  // H100; the H200's are the same binaries): mean error 9.9 % (fit), 10.3 % (test).
  if (t.matmul) {
    const double acc = static_cast<double>(p.block_m()) * p.block_n() / threads;
    const auto per_thread = [&](const OperandChoice& o) {  // an operand's accesses a thread
      return static_cast<double>(o.warp_accesses) * kWarpLanes / threads;
    };
    double need = kRegisterBase + kRegistersPerAccumulator * acc;
    if (t.dot == MathPath::fma) need += kRegistersPerFmaAccumulator * acc;
    for (const OperandChoice* o : {&t.a, &t.b})
      need += per_thread(*o) * (o->path == LoadPath::cp_async ? kRegistersPerAsyncAccess
                                                              : kRegistersPerStagedAccess);
    // The epilogue's peak (the accumulator and its stores' addresses) where it is higher than
    // the loop's: one-element stores behind 16-byte cp.async tiles (N = 4100, B transposed:
    // ptxas 154 a thread at 128 x 128 x 64, 8 warps, where the loop's estimate is 122).
    const double epilogue = kEpilogueRegisterBase + kEpilogueRegistersPerAccumulator * acc +
                            kEpilogueRegistersPerStore * per_thread(t.c);
    if (epilogue > need) {
      t.loop_registers = static_cast<int>(std::lround(need));
      need = epilogue;
    }
    t.registers = static_cast<int>(std::lround(need));
    t.spilled_registers = std::max(0, t.registers - kMaxThreadRegisters);
    if (t.spilled_registers > 0 && t.dot == MathPath::wgmma) {
      // A wgmma's accumulator fragment (64 rows x n of one instruction: n / 2 registers a thread
      // of its warpgroup) must sit in registers whole while the instruction runs. Short of
      // registers, ptxas recomputes what it can (the tiles' addresses from their base) and keeps
      // as many whole fragments as fit beside the loop's fixed state (kRegisterBase), spilling
      // the others. So 128 x 256 at 4 warps (two m64n256 fragments of 128) spills one of 128
      // registers, 256 x 128 (four m64n128 of 64) one of 64: ptxas's spill stores are 196 and
      // 142 bytes, and the L2 traffic the spills add 4.6 and 2.9 GB at 4096^3 (ncu: L2 hit rate
      // 68 -> 96 % and 77 -> 95 %; assets/measured/triton_h100.json).
      const double fragment = wgmma_n(p) / 2.0;
      const double room = kMaxThreadRegisters - kRegisterBase;
      const double kept = std::min(acc, std::floor(room / fragment) * fragment);
      t.spilled_accumulators = static_cast<int>(std::lround(acc - kept));
      // The rest of the estimate's excess (pointers, staged values) spills too, beside them.
      t.spilled_registers = std::max(t.spilled_registers, t.spilled_accumulators);
    }
    t.registers = std::min(t.registers, kMaxThreadRegisters);
    // Only where both operands are staged: the census has no loop with a cp.async operand,
    // whose offsets the coefficients were not fitted to.
    if (t.dot == MathPath::wgmma && t.a.path == LoadPath::ld_global &&
        t.b.path == LoadPath::ld_global) {
      const double ea = per_thread(t.a), eb = per_thread(t.b);
      const double loads =
          ea + eb >= kPointerLoopAccesses
              ? kLocalLoadsPerPointer * (ea + eb)
              : std::max(0.0, acc - t.spilled_accumulators + kLocalLoadsPerAAccess * ea +
                                  kLocalLoadsPerBAccess * eb + kLocalLoadBase -
                                  kMaxThreadRegisters);
      t.loop_local_loads = static_cast<int>(std::lround(loads));
    }
  }

  // Notes: every choice off the fast path, with its cause.
  const auto bytes = [](int b) { return std::to_string(b) + "-byte"; };
  const std::string where(to_string(m.has_cp_async ? LoadPath::cp_async : LoadPath::ld_global));
  // Rows that start mid-sector: the GPU moves the extra sectors between the SMs and the L2; what
  // costs time is the stores' partial sectors, on the L2's write side (docs/TRITON_FINDINGS.md,
  // *Rows that start mid-sector*; the timed engine weighs the stores by store_sector_weight).
  const auto misaligned_note = [&](const std::string& name, const OperandChoice& o) {
    const double aligned = global_sectors(o, e, true);
    if (o.sectors_per_access <= aligned + 1e-9) return;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", o.sectors_per_access);
    t.notes.push_back(name + ": rows start mid-sector (a row is " +
                      std::to_string(o.leading_stride * e) +
                      " bytes, not a multiple of 32): a warp access touches " + buf +
                      " sectors of 32 bytes on average where " +
                      std::to_string(static_cast<int>(aligned)) + " would do");
  };
  for (const OperandChoice* o : {&t.a, &t.b}) {
    if (!t.matmul && o == &t.b) continue;
    const std::string name = !t.matmul ? "the input" : o->operand == Operand::a ? "A" : "B";
    const std::string stride = stride_name(p, o->operand);
    if (!o->divisible_by_16)
      t.notes.push_back(
          name + ": " + bytes(o->access_bytes) + " " + std::string(to_string(o->path)) + " loads" +
          (t.matmul && o->path == LoadPath::ld_global ? ", not pipelined" : "") + ": " + stride +
          " = " + std::to_string(o->leading_stride) + " is not a multiple of 16");
    misaligned_note(name, *o);
    // The lines the pipe pays for (an element-wise cp.async: step_costs' kMidSectorLineCycles).
    const double extra_lines = extra_lines_per_access(*o);
    if (t.matmul && o->path == LoadPath::cp_async && o->access_bytes < 16 && extra_lines > 1e-9) {
      char buf[96];
      std::snprintf(buf, sizeof buf,
                    "%.2f lines on average where %.0f would do (%.2f more L2 requests)",
                    o->lines_per_access, o->lines_per_access - extra_lines, extra_lines);
      t.notes.push_back(name + ": rows start off a 128-byte line: a warp access touches " + buf);
    }
    if (!o->lanes_along_contiguous)
      t.notes.push_back(name + ": each lane reads its own row (" +
                        std::to_string(static_cast<int>(o->lines_per_access)) +
                        " lines per warp access): the columns wrap (% " + stride +
                        ") and Triton cannot prove them contiguous" +
                        (o->l1_bank_ways > 1 && o->path == LoadPath::cp_async
                             ? "; the L1 reads their 32 words " + std::to_string(o->l1_bank_ways) +
                                   " to a bank, " + std::to_string(o->l1_bank_ways) + " passes"
                             : std::string()));
    if (o->smem_transposed && o->divisible_by_16)
      t.notes.push_back(name + " is stored K-major (transposed) in shared memory for tf32: " +
                        bytes(o->access_bytes) + " copies, " +
                        std::to_string(static_cast<int>(o->smem_wavefronts_per_access)) +
                        " wavefronts each (bank conflicts)");
  }
  if (t.matmul && stages <= 1)
    t.notes.push_back("num_stages = 1: ld.global through registers, no software pipeline");
  else if (t.matmul && !m.has_cp_async)
    t.notes.push_back(m.name + " has no cp.async: no software pipeline (" + where + ")");
  if (!t.c.divisible_by_16)
    t.notes.push_back("C: " + bytes(t.c.access_bytes) + " stores: " + stride_name(p, Operand::c) +
                      " = " + std::to_string(t.c.leading_stride) + " is not a multiple of 16");
  misaligned_note("C", t.c);
  if (t.c.partial_sectors_per_access > 0) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.2f of them in part; the L2 stores a partial sector at %.2f",
                  t.c.partial_sectors_per_access, m.partial_sector_store_cost);
    char weight[32];
    std::snprintf(weight, sizeof weight, "%.2f",
                  store_sector_cost(t.c, m.partial_sector_store_cost));
    t.notes.push_back("C: " + std::string(buf) + " whole ones, so the stores cost the L2's " +
                      "write side " + weight + "x what rows that start on a sector would");
  }
  if (t.wgmma_serialized)
    t.notes.push_back(
        "dot: ptxas serialises the wgmmas (warning C7515; a census of Triton 3.6's tf32 "
        "kernels: B transposed, 8 warps, M, N, K multiples of 16, BLOCK_N at most 128): each "
        "waits for the one before to finish, so a K step waits out every wgmma's completion "
        "instead of keeping one in flight");
  if (t.loop_registers > 0) {
    const std::int64_t stores = t.c.warp_accesses * kWarpLanes / threads;
    t.notes.push_back("registers: the epilogue's, about " + std::to_string(t.registers) +
                      " a thread (its accumulator and an address for each of its " +
                      std::to_string(stores) + " stores), not the loop's " +
                      std::to_string(t.loop_registers));
  }
  if (t.spilled_accumulators > 0)
    t.notes.push_back(
        "more registers than the 255 a thread may hold: " + std::to_string(t.spilled_accumulators) +
        " accumulator registers (whole wgmma fragments) spill to local memory and "
        "are reloaded every K step");
  if (t.spilled_registers > t.spilled_accumulators)
    t.notes.push_back("more registers than the 255 a thread may hold: about " +
                      std::to_string(t.spilled_registers - t.spilled_accumulators) +
                      " spill to local memory");
  return t;
}

std::string describe(const OperandChoice& o) {
  std::string s = std::string(to_string(o.path)) + " " + std::to_string(o.access_bytes) + " B";
  if (o.buffers > 1) s += " x" + std::to_string(o.buffers);
  if (!o.lanes_along_contiguous) s += ", lanes across rows";
  if (o.swizzle_bytes > 0)
    s += ", smem " + std::to_string(o.swizzle_bytes) + " B swizzle" +
         (o.smem_transposed ? " (transposed)" : "");
  if (o.smem_wavefronts_per_access > std::ceil(32.0 * o.access_bytes / 128))
    s += ", " + std::to_string(static_cast<int>(o.smem_wavefronts_per_access)) +
         " wavefronts a write";
  return s;
}

std::int64_t triton_shared_bytes(const Problem& p, const TritonChoices& t) {
  const std::int64_t bm = p.block_m(), bn = p.block_n(), bk = p.block_k();
  const std::int64_t buffers =
      (bm * bk * std::max(1, t.a.buffers) + bk * bn * std::max(1, t.b.buffers)) * p.elem_bytes();
  return std::max(buffers, t.epilogue_scratch_bytes);
}

}  // namespace tilesim::sim
