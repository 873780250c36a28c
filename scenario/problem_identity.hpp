// "Is this the same problem?", decided once: a measurement, a bench record and a cached result
// belong to a problem when same_configuration() says so, and problem_key() names a problem for
// caches. Both follow the codec's field list (problem_json.hpp).
#pragma once

#include <string>

#include "sim/program/problem.hpp"

namespace tilesim::scenario {

// Whether block sizes take part: a variant with its own compile-time tile ran the problem's
// sizes and launch order with its tile, not the problem's BLOCK_M/N/K.
enum class Blocks { compared, ignored };

// True when `a` and `b` run the same configuration: kernel, sizes, dtype, blocks, launch order
// (and GROUP_SIZE_M for grouped orders), B layout for matmul. Fields a kernel ignores (K, BLOCK_K
// and B layout outside matmul, boundary and stages, which do not change what is measured) are
// not compared.
bool same_configuration(const sim::ProblemSpec& a, const sim::ProblemSpec& b,
                        Blocks blocks = Blocks::compared);

// Every field, as compact JSON: equal keys mean equal specs.
std::string problem_key(const sim::ProblemSpec& p);

}  // namespace tilesim::scenario
