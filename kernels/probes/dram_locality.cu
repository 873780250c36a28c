// Probe: the read throughput against how many contiguous bytes of a row a kernel reads before it
// moves to the next row. A tiled matmul reads its A tile as BLOCK_M row pieces of BLOCK_K x elem
// bytes (64 B for 32 fp16): a warp's 16-byte copies cover 512 / piece rows each, and every
// program is at about the same K offset. Each block here owns `rows_per_block` rows of a matrix
// and reads them strip by strip: `strip` bytes of each of its rows, then the next strip, 16-byte
// loads, a warp covering 512 contiguous bytes or 512 / strip rows, 8 loads a thread in flight.
// Every configuration reads every byte of its rows once (through the L2 only: ld.global.cg);
// only the order differs. Three sources of difference are told apart:
// - "dram", 64 rows a block: a thread's 8 loads in flight span 8 strips of the same 64 rows
//   (512 bytes of each), so the DRAM sees the same addresses at once whatever the strip; only
//   the shape of each warp request changes (8 rows x 64 B, or 1 row x 512 B).
// - "dram", 512 rows a block: the loads in flight span one strip of 512 rows: the DRAM sees a
//   narrow column of many rows at once, as a GPU full of programs at one K offset does.
// - "l2": 64 rows a block, every block re-reading one of 16 row blocks (8 MiB at the 8 KiB pitch,
//   resident in the L2): the request shape without the DRAM.
// "lockstep": every block starts at strip 0, as a launch of tiles does; "staggered": block b
// starts at strip 7b (mod strips), as programs of later waves do.
// Output CSV: source, pitch_bytes, rows, rows_per_block, strip_bytes, order, ms (best of 5 after a
// warm-up), gb_s (bytes read over time). One configuration with
// `--one SOURCE PITCH ROWS_PER_BLOCK STRIP ORDER` (for ncu's counters).
// Build: nvcc -O3 -std=c++20 --expt-relaxed-constexpr -arch=sm_90 -I. -o dram_locality
//   kernels/probes/dram_locality.cu
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "kernels/probes/probe_support.cuh"

namespace {

using tilesim::probes::DeviceBuffer;

constexpr int kThreads = 256;
constexpr int kLoadsInFlight = 8;           // 16-byte loads a thread between uses
constexpr long long kMaxBytes = 1LL << 30;  // the DRAM source: 20x the L2
constexpr int kL2RowBlocks = 16;            // the L2 source: 16 x 64 rows x 8 KiB = 8 MiB
constexpr long long kL2Pitch = 8192;

// in: row blocks of 2^log_rows rows x pitch16 vectors of 16 bytes; block b reads row block
// b % row_blocks, 2^log_w16 vectors of each row a strip, strip after strip (a thread's
// kLoadsInFlight loads run on across strips and rows). The index arithmetic is shifts and masks:
// with divisions the probe measures its own instruction issue, not the memory. sink keeps the
// loads alive.
__global__ void __launch_bounds__(kThreads)
    strips(const uint4* __restrict__ in, unsigned* sink, int pitch16, int log_rows, int log_w16,
           int row_blocks, int staggered) {
  const int w16 = 1 << log_w16;
  const int log_per_strip = log_w16 + log_rows;
  const int strips_per_row = pitch16 >> log_w16;
  const int total = pitch16 << log_rows;
  const int first = staggered ? static_cast<int>((7LL * blockIdx.x) % strips_per_row) : 0;
  const uint4* base = in + (static_cast<long long>(blockIdx.x % row_blocks) << log_rows) * pitch16;
  unsigned acc = 0;
  for (int e0 = threadIdx.x; e0 < total; e0 += kLoadsInFlight * kThreads) {
    uint4 v[kLoadsInFlight];
#pragma unroll
    for (int u = 0; u < kLoadsInFlight; ++u) {
      const int e = e0 + u * kThreads;
      if (e < total) {
        int strip = (e >> log_per_strip) + first;
        if (strip >= strips_per_row) strip -= strips_per_row;
        const int r = e & ((1 << log_per_strip) - 1);
        v[u] = __ldcg(base + (r >> log_w16) * pitch16 + strip * w16 + (r & (w16 - 1)));
      } else {
        v[u] = make_uint4(0, 0, 0, 0);
      }
    }
#pragma unroll
    for (int u = 0; u < kLoadsInFlight; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  if (acc == 0x9e3779b9u) sink[0] = acc;  // never true for the memset input; keeps the loads
}

struct Config {
  bool l2 = false;  // the L2 source (else the DRAM's)
  long long pitch = 8192;
  int rows_per_block = 64;
  int strip = 64;
  bool staggered = false;
};

int log2_of(long long v) {
  int l = 0;
  while ((1LL << l) < v) ++l;
  return l;
}

bool power_of_two(long long v) {
  return v > 0 && (v & (v - 1)) == 0;
}

// Blocks, a multiple of the SMs (every SM reads as much), and the distinct row blocks they read.
void grid_of(const Config& c, int sms, int* blocks, int* row_blocks) {
  if (c.l2) {
    *row_blocks = kL2RowBlocks;
    *blocks = sms * 4;
    return;
  }
  const long long per_sm = static_cast<long long>(sms) * c.rows_per_block;
  *blocks = static_cast<int>(kMaxBytes / c.pitch / per_sm * sms);
  *row_blocks = *blocks;
}

void measure(const DeviceBuffer& in, const DeviceBuffer& sink, const Config& c, int sms, int reps) {
  int blocks = 0, row_blocks = 0;
  grid_of(c, sms, &blocks, &row_blocks);
  const float best = tilesim::probes::best_ms(reps, [&] {
    strips<<<blocks, kThreads>>>(static_cast<const uint4*>(in.p), static_cast<unsigned*>(sink.p),
                                 static_cast<int>(c.pitch / 16), log2_of(c.rows_per_block),
                                 log2_of(c.strip / 16), row_blocks, c.staggered ? 1 : 0);
  });
  const long long rows = static_cast<long long>(blocks) * c.rows_per_block;
  std::printf("%s,%lld,%lld,%d,%d,%s,%.4f,%.1f\n", c.l2 ? "l2" : "dram", c.pitch, rows,
              c.rows_per_block, c.strip, c.staggered ? "staggered" : "lockstep", best,
              static_cast<double>(c.pitch) * static_cast<double>(rows) / best / 1e6);
}

// `--one SOURCE PITCH ROWS_PER_BLOCK STRIP ORDER`, checked; empty string when valid.
std::string parse_one(char** argv, Config* c) {
  const std::string source = argv[2], order = argv[6];
  if (source != "dram" && source != "l2") return "SOURCE must be dram or l2";
  if (order != "lockstep" && order != "staggered") return "ORDER must be lockstep or staggered";
  c->l2 = source == "l2";
  c->staggered = order == "staggered";
  c->pitch = std::atoll(argv[3]);
  c->rows_per_block = std::atoi(argv[4]);
  c->strip = std::atoi(argv[5]);
  if (c->l2 && (c->pitch != kL2Pitch || c->rows_per_block != 64))
    return "the l2 source reads PITCH 8192, ROWS_PER_BLOCK 64";
  if (c->pitch < 512 || c->pitch > (1 << 20) || c->pitch % 512 != 0)
    return "PITCH must be a multiple of 512 in 512..1048576";
  if (!power_of_two(c->rows_per_block) || c->rows_per_block < 64 || c->rows_per_block > 2048)
    return "ROWS_PER_BLOCK must be a power of two in 64..2048";
  if (!power_of_two(c->strip) || c->strip < 16 || c->pitch % c->strip != 0)
    return "STRIP must be a power of two >= 16 dividing PITCH";
  if (c->pitch / 16 * c->rows_per_block > (1LL << 30) / 16 / 4)
    return "PITCH x ROWS_PER_BLOCK must stay under 256 MiB";
  return "";
}

int run(int argc, char** argv) {
  cudaDeviceProp prop{};
  TILESIM_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  DeviceBuffer in(kMaxBytes), sink(16);
  TILESIM_CUDA_CHECK(cudaMemset(in.p, 1, kMaxBytes));
  if (argc > 1 && std::strcmp(argv[1], "--one") == 0) {
    Config c;
    const std::string error =
        argc == 7 ? parse_one(argv, &c) : "usage: --one SOURCE PITCH ROWS_PER_BLOCK STRIP ORDER";
    if (!error.empty()) {
      std::fprintf(stderr, "dram_locality: %s\n", error.c_str());
      return 2;
    }
    measure(in, sink, c, sms, 1);
    return 0;
  }
  if (argc > 1) {
    std::fprintf(stderr, "dram_locality: no argument, or --one ...\n");
    return 2;
  }
  std::printf("# %s, %d SMs\n", prop.name, sms);
  std::printf("source,pitch_bytes,rows,rows_per_block,strip_bytes,order,ms,gb_s\n");
  const auto sweep = [&](Config c, std::initializer_list<int> strips) {
    for (const int strip : strips)
      for (const bool staggered : {false, true}) {
        c.strip = strip, c.staggered = staggered;
        measure(in, sink, c, sms, 5);
      }
  };
  for (const long long pitch : {8192LL, 24576LL})
    sweep({false, pitch, 64, 0, false}, {16, 32, 64, 128, 256, 512, 1024, 8192});
  sweep({false, 8192, 512, 0, false}, {16, 32, 64, 128, 512, 8192});
  sweep({true, kL2Pitch, 64, 0, false}, {16, 32, 64, 128, 512, 8192});
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return tilesim::probes::run_probe("dram_locality", [&] { return run(argc, argv); });
}
