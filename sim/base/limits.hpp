// Limits every input path shares (scenario files, CLI flags, app fields) and the one way each is
// refused: InvalidField names the field, the message says what is allowed. Written once here, so
// "programs_per_sm = 999 is out of range: allowed 1..64" reads the same from the CLI and the app.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tilesim::sim {

// A value outside its allowed range. `field` is the scenario key / CLI flag stem ("block_m").
class InvalidField : public std::invalid_argument {
 public:
  InvalidField(std::string field, const std::string& message);
  const std::string& field() const { return m_field; }

 private:
  std::string m_field;
};

inline constexpr std::int64_t kMaxDim = 65536;  // M, N, K
inline constexpr int kMaxBlock = 256;           // BLOCK_M/N/K, powers of two
inline constexpr std::int64_t kMaxGroupSizeM = 65536;
inline constexpr int kMaxStages = 8;
inline constexpr int kMaxNumWarps = 16;  // num_warps: a power of two, 1..16
// Programs resident per SM when the occupancy calculation is overridden (the wave's width).
inline constexpr int kMinProgramsPerSm = 1, kMaxProgramsPerSm = 64;

// Throws InvalidField("<field> = <v> is out of range: allowed <lo>..<hi>") unless lo <= v <= hi.
void check_range(std::string_view field, std::int64_t v, std::int64_t lo, std::int64_t hi);
void check_programs_per_sm(std::int64_t v);
// The refusal of a name that is not one of `allowed` ("kernel = \"cpy\" is unknown: allowed
// copy | transpose | matmul").
InvalidField unknown_value(std::string_view field, std::string_view value,
                           std::string_view allowed);

}  // namespace tilesim::sim
