// Carveout: the driver's choice of shared memory an SM, the rest being L1.
#include "sim/program/carveout.hpp"

#include <algorithm>

namespace tilesim::sim {

std::int64_t driver_carveout_bytes(const Machine& m, std::int64_t smem_per_program,
                                   int programs_per_sm) {
  const std::int64_t most = m.smem_per_sm_bytes;
  if (smem_per_program > kDefaultDynamicSmemBytes) return most;  // opted in: shared preferred
  const std::int64_t held = smem_per_program + m.smem_reserved_per_program_bytes;
  const std::int64_t residents = std::max(1, programs_per_sm);
  std::int64_t need = residents * held;
  if (residents >= 2)
    need = std::max(need, std::min(2 * need, std::int64_t{kCarveoutHeadroomCapKiB} << 10));
  // Never more than the most programs of this size the SM could hold (the probe: 5 programs of
  // 49 KiB would need 245, and the driver carves 196 for 4).
  if (held > 0) need = std::min(need, most / held * held);
  for (const int kib : kCarveoutsKiB) {
    const std::int64_t bytes = std::int64_t{kib} << 10;
    if (bytes <= most && bytes >= need) return bytes;
  }
  return most;
}

}  // namespace tilesim::sim
