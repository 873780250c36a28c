// Fixed pseudo-random numbers: the same on every machine, from integers only (splitmix64), so a
// replay that varies its programs' times is still deterministic. The timed engine draws its
// time noise here (a dot step's diffusion, a load round's latency factor).
#pragma once

#include <cstdint>
#include <initializer_list>

namespace tilesim::sim {

// splitmix64's finaliser over x + the golden-ratio increment: 64 well-mixed bits per input.
constexpr std::uint64_t splitmix64(std::uint64_t x) {
  std::uint64_t z = x + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// A fixed pseudo-random number of mean 0 and variance 1 per (pid, K step or round): the sum of
// three uniforms in [-1, 1) (each of variance 1/3) from one splitmix64 draw; within [-3, 3].
constexpr double fixed_noise(std::int64_t pid, std::int64_t k) {
  const std::uint64_t z =
      splitmix64((static_cast<std::uint64_t>(pid) << 24) + static_cast<std::uint64_t>(k));
  constexpr double kScale = 0x1.0p-20;  // 21-bit fields -> [0, 2)
  double sum = 0;
  for (const int shift : {0, 21, 42})
    sum += static_cast<double>((z >> shift) & 0x1FFFFF) * kScale - 1.0;
  return sum;
}

}  // namespace tilesim::sim
