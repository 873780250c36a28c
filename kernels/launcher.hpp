// A variant's code: a launcher that enqueues one launch and returns "" or why it cannot run the
// problem (the table in launchers.cpp, by registry name), and the compile-time tile of a
// fixed-tile rung (the registry, variants.cpp). Plain C++: LaunchArgs (device_common.cuh) is only
// named here, so the CUDA-free build reads the same registry and table, with no launchers in it.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace tilesim::kernels {

namespace detail {
struct LaunchArgs;
}
using Launcher = std::string (*)(const detail::LaunchArgs&);

// One row of the launcher table: every implemented variant has exactly one.
struct LauncherRow {
  std::string_view variant;
  Launcher launch = nullptr;  // nullptr in a build without CUDA
};
const std::vector<LauncherRow>& launchers();
Launcher find_launcher(std::string_view variant);  // nullptr: no row, or no CUDA

// Threads of a copy or transpose block: one per access of its tile (`accesses`: its elements, or
// its 16-byte chunks), at most 256 (each thread then loops over several) and at least
// `at_least` (a warp; the shared-memory transposes also keep a thread per tile row and column).
// One rule for the launchers (copy.cu, transpose.cu) and the timed engine's description of these
// rungs (rung_timing.cpp).
constexpr int element_loop_threads(int accesses, int at_least = 32) {
  return std::max(at_least, std::min(256, accesses));
}

// A rung's own tile (BLOCK_M x BLOCK_N x BLOCK_K); the launch order and GROUP_SIZE_M apply to it.
struct FixedTile {
  int block_m = 0, block_n = 0, block_k = 0;
  constexpr bool operator==(const FixedTile&) const = default;
};

}  // namespace tilesim::kernels

// A launcher table row's function: the function in CUDA builds, none in the stub build.
#if defined(TILESIM_KERNELS_CUDA)
#define TILESIM_LAUNCHER(fn) (&::tilesim::kernels::detail::fn)
#else
#define TILESIM_LAUNCHER(fn) (::tilesim::kernels::Launcher{nullptr})
#endif
