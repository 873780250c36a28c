#include "triton/heap_reuse.hpp"

#include <cstdlib>  // defines __GLIBC__ where it applies

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace tilesim::triton {

void keep_freed_heap_memory() {
#if defined(__GLIBC__)
  constexpr int kKeepBytes = 64 << 20;
  mallopt(M_TRIM_THRESHOLD, kKeepBytes);
  // Setting the trim threshold also fixes the mmap threshold at its default (128 KiB); raise it
  // so a 2^20-lane tile (8 MiB, the evaluator's cap) comes from the reused heap as well.
  mallopt(M_MMAP_THRESHOLD, 16 << 20);
#endif
}

}  // namespace tilesim::triton
