// The one ProblemSpec codec: every file that holds a problem (scenarios, measured files, bench
// reports) reads and writes it here, field by field from one list, so adding a field to
// sim::ProblemSpec is one line in for_each_problem_field plus its use. Internal to scenario/
// (it names nlohmann::json); other layers see parse/load functions and problem_key().
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "sim/program/problem.hpp"

namespace tilesim::scenario {

// Every field of ProblemSpec with its JSON key. `p` is a ProblemSpec or a const ProblemSpec.
template <class Spec, class F>
void for_each_problem_field(Spec& p, F&& f) {
  f("kernel", p.kernel);
  f("m", p.m);
  f("n", p.n);
  f("k", p.k);
  f("dtype", p.dtype);
  f("b_layout", p.b_layout);
  f("block_m", p.block_m);
  f("block_n", p.block_n);
  f("block_k", p.block_k);
  f("group_size_m", p.group_size_m);
  f("order", p.order);
  f("boundary", p.boundary);
  f("stages", p.stages);
  f("num_warps", p.num_warps);
  f("input_precision", p.input_precision);
}

// How strictly to read. Both refuse unknown keys and wrong types, naming the key. `legacy` adds the
// alias table of files written before the codec: measured files (scripts/calibrate) spell
// GROUP_SIZE_M `group_m` and write every number as a string ("4096").
enum class Dialect { strict, legacy };

// One key of a problem; false when `key` is not a problem field (the caller's own key, or unknown).
// Throws sim::InvalidField(key) for a wrong type or an unknown enum name.
bool read_problem_field(sim::ProblemSpec& p, const std::string& key, const nlohmann::json& v,
                        Dialect d = Dialect::strict);
// An enum by name: a string that sim::parse_field<E> knows, else InvalidField(key).
template <class E>
E read_enum(const nlohmann::json& v, const std::string& key) {
  if (!v.is_string())
    throw sim::InvalidField(key, key + " must be a string: one of " + sim::allowed_names<E>());
  return sim::parse_field<E>(key, v.get<std::string>());
}
// An integer that must fit an int (BLOCK_M, programs_per_sm), by the same rules as the fields.
int read_int(const nlohmann::json& v, const std::string& key, Dialect d = Dialect::strict);
// A whole problem object; keys it does not list keep ProblemSpec's defaults, unknown keys throw.
// Values are not range-checked here (sim::Problem does that where a problem is run).
sim::ProblemSpec problem_from_json(const nlohmann::json& j, Dialect d = Dialect::strict);
// Every field, with the names sim::to_string gives enums.
nlohmann::json problem_to_json(const sim::ProblemSpec& p);

}  // namespace tilesim::scenario
