// The refusals of out-of-range and unknown values (see limits.hpp).
#include "sim/base/limits.hpp"

namespace tilesim::sim {

InvalidField::InvalidField(std::string field, const std::string& message)
    : std::invalid_argument(message), m_field(std::move(field)) {}

void check_range(std::string_view field, std::int64_t v, std::int64_t lo, std::int64_t hi) {
  if (v < lo || v > hi)
    throw InvalidField(std::string(field), std::string(field) + " = " + std::to_string(v) +
                                               " is out of range: allowed " + std::to_string(lo) +
                                               ".." + std::to_string(hi));
}

void check_programs_per_sm(std::int64_t v) {
  check_range("programs_per_sm", v, kMinProgramsPerSm, kMaxProgramsPerSm);
}

InvalidField unknown_value(std::string_view field, std::string_view value,
                           std::string_view allowed) {
  return InvalidField(std::string(field), std::string(field) + " = \"" + std::string(value) +
                                              "\" is unknown: allowed " + std::string(allowed));
}

}  // namespace tilesim::sim
