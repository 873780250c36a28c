// Keeping freed heap memory for reuse, for the front end's tile churn.
#pragma once

namespace tilesim::triton {

// Asks the C library to keep up to 64 MiB of freed heap memory instead of handing it back to
// the system at once. The evaluator allocates and frees tiles of 8192 int64 lanes (64 KiB) a
// few times per access; glibc trims the heap's top whenever more than 128 KiB is free there, so
// every allocation faulted fresh zeroed pages in again: half of the front end's time at 8192^3
// (docs/PERFORMANCE.md). Call once from main(); a no-op outside glibc.
void keep_freed_heap_memory();

}  // namespace tilesim::triton
