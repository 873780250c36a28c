// The parameter table (sim/machine/parameters, sim/timing/model_parameters): a Machine or
// TimingOptions field without a row fails here, counted two ways that cannot drift — the
// aggregate's own member count, and the keys a custom machine's JSON may set.
#include "sim/machine/parameters.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "scenario/machine_json.hpp"
#include "sim/timing/model_parameters.hpp"
#include "sim/timing/step_costs.hpp"

namespace tilesim::sim {
namespace {

template <class T>
constexpr bool kIsOptional = false;
template <class T>
constexpr bool kIsOptional<std::optional<T>> = true;

// Converts to any member type (std::optional through its value type), so T{AnyField{} x n}
// compiles exactly while n <= T's member count. Only ever used unevaluated.
struct AnyField {
  template <class T>
  requires(!kIsOptional<T>) operator T() const;
};

// The number of members of the aggregate T, counted by the compiler: the largest n for which
// T{AnyField{} x n} is well formed.
template <class T, class... Fields>
constexpr std::size_t member_count() {
  if constexpr (requires { T{Fields{}..., AnyField{}}; })
    return member_count<T, Fields..., AnyField>();
  else
    return sizeof...(Fields);
}

std::set<std::string> row_names() {
  std::set<std::string> names;
  for (const auto& p : machine_parameters()) names.insert(p.name);
  return names;
}

TEST(ParameterTable, EveryMachineFieldHasARowOrIsALabel) {
  // A new Machine field raises the member count; this fails until it has a row in
  // sim/machine/parameters.cpp (and a key in scenario/machine_json.cpp, next test).
  EXPECT_EQ(member_count<Machine>(), machine_parameters().size() + machine_labels().size())
      << "a sim::Machine field has no row in sim/machine/parameters.cpp";
  EXPECT_EQ(row_names().size(), machine_parameters().size()) << "a field has two rows";
}

TEST(ParameterTable, EveryCustomMachineKeyIsARowAndEverySettableRowIsAKey) {
  const auto keys = scenario::machine_json_keys();
  const std::set<std::string> key_set(keys.begin(), keys.end());
  EXPECT_EQ(key_set.size(), keys.size()) << "a key is listed twice in for_each_machine_field";
  for (const auto& key : keys) {
    const bool label =
        std::find(machine_labels().begin(), machine_labels().end(), key) != machine_labels().end();
    const auto* row = find_machine_parameter(key);
    EXPECT_TRUE(label || (row && row->json_key)) << key << " has no settable row";
  }
  for (const auto& p : machine_parameters())
    if (p.json_key) {
      EXPECT_TRUE(key_set.count(p.name)) << p.name << " is not a custom-machine key";
    }
}

TEST(ParameterTable, EveryRowNamesAKindAndEvidenceForEveryPreset) {
  for (const auto& p : machine_parameters()) {
    EXPECT_FALSE(p.unit.empty()) << p.name;
    EXPECT_FALSE(p.meaning.empty()) << p.name;
    for (const auto& m : machine_presets()) {
      const Evidence* e = p.evidence_for(m.key);
      ASSERT_NE(e, nullptr) << p.name << " has no evidence for " << m.key;
      EXPECT_FALSE(e->source.empty()) << p.name << " on " << m.key;
      // Inherited means a T4 or A100 figure copied from an H100/H200 one.
      if (e->kind == ParameterKind::inherited) {
        EXPECT_TRUE(m.key == "t4" || m.key == "a100") << p.name;
      }
      EXPECT_NE(e->kind, ParameterKind::code) << "code is a per-rung kind";
    }
  }
}

TEST(ParameterTable, ValuesAreReadFromTheMachineNotRestated) {
  const auto* latency = find_machine_parameter("dram_latency_cycles");
  ASSERT_NE(latency, nullptr);
  const Machine h100 = *find_machine("h100");
  EXPECT_EQ(format_value(latency->value(h100)), "706");
  EXPECT_EQ(latency->evidence_for("h100")->kind, ParameterKind::fitted);
  Machine custom = h100;
  custom.dram_latency_cycles = 123;
  EXPECT_EQ(format_value(latency->value(custom)), "123");
  EXPECT_EQ(format_value(find_machine_parameter("has_wgmma")->value(h100)), "true");
  EXPECT_EQ(format_value(find_machine_parameter("dram_efficiency")->value(h100)), "0.869");
}

TEST(ParameterTable, TheTwoBenchFitsAreTheOnlyFittedRowsBesidesTheSpreadsAndTheDramLatency) {
  std::set<std::string> fitted;
  for (const auto& p : machine_parameters())
    if (p.evidence_for("h100")->kind == ParameterKind::fitted) fitted.insert(p.name);
  // (And the tensor clock's fall under load, fitted on the Triton fit set: issue 25.)
  EXPECT_EQ(fitted,
            (std::set<std::string>{"dram_efficiency", "tensor_efficiency", "dot_time_diffusion_s",
                                   "dot_time_diffusion_miss_s", "load_round_cv",
                                   "dram_latency_cycles", "tensor_sustained_fraction",
                                   "tensor_throttle_after_s", "tensor_throttle_tau_s"}));
}

TEST(ParameterTable, EveryTimingOptionsFieldHasARow) {
  EXPECT_EQ(member_count<TimingOptions>(), rung_parameters().size())
      << "a sim::TimingOptions field has no row in sim/timing/model_parameters.cpp";
  for (const auto& p : rung_parameters()) {
    EXPECT_FALSE(p.source.empty()) << p.name;
    EXPECT_FALSE(p.value.empty()) << p.name;
  }
  EXPECT_EQ(rung_parameters()[0].value, "unset");  // path: Triton's choice
}

TEST(ParameterTable, ConstantsShowTheirOwnValues) {
  std::set<std::string> names;
  for (const auto& c : model_constants()) names.insert(c.name + "=" + c.value);
  EXPECT_TRUE(names.count("kLoopOverheadCycles=" + std::to_string(kLoopOverheadCycles)));
  EXPECT_TRUE(names.count("kMaxRegistersPerThread=255"));
  EXPECT_TRUE(names.count("kMinReadShare=0.5"));
}

}  // namespace
}  // namespace tilesim::sim
