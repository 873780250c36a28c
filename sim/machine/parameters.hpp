// The parameter table: every Machine field with its unit, its value per preset (read from the
// presets, never restated), its kind (datasheet, measured, fitted, inherited, assumed) and its
// evidence; the per-rung and constant rows share its types (sim/timing/model_parameters.hpp).
// Teaches: which figures come from a datasheet, which were measured, and which few were fitted
// to a measurement through the model.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/machine/machine.hpp"

namespace tilesim::sim {

// Where a figure comes from.
//  datasheet: a vendor document (datasheet, whitepaper, tuning or programming guide);
//  measured:  read off a measurement (tilesim's probes, ncu, tilesim-bench, or a published
//             microbenchmark) without running the model;
//  fitted:    chosen so that the model (or its formula) reproduces a measured figure: the fit and
//             its fit set are named;
//  inherited: a T4 or A100 figure copied from an H100/H200 measurement or fit;
//  assumed:   an estimate or a modelling choice with no measurement behind it;
//  code:      what a rung's own code does (its source or SASS), per rung.
enum class ParameterKind { datasheet, measured, fitted, inherited, assumed, code };
// Where the field would sit if Machine were split in sub-structs: the datasheet's sizes, peaks
// and per-SM limits; the memory path (L2, DRAM, shared memory); the timed engine's timing.
enum class ParameterGroup { sheet, memory, timing };

std::string_view to_string(ParameterKind k);
std::string_view to_string(ParameterGroup g);

// A value as the table shows it: a number (an integer field shows no decimals) or a flag.
struct ParameterValue {
  double number = 0;
  bool is_flag = false;
  bool is_integer = false;
};
// "132", "5.24288e+07", "0.869", "true".
std::string format_value(const ParameterValue& v);

// A kind and its evidence for some presets.
struct Evidence {
  std::string presets;  // the preset keys it holds for, space-separated ("t4 a100"); "": all
  ParameterKind kind = ParameterKind::assumed;
  std::string source;  // the datasheet, probe, assets/measured/ file, or fit and fit set
};

// One Machine field.
struct MachineParameter {
  std::string name;  // the Machine field, and its key in a custom machine's JSON (json_key)
  std::string unit;
  ParameterGroup group = ParameterGroup::sheet;
  std::string meaning;                                // one line: what the model does with it
  ParameterValue (*value)(const Machine&) = nullptr;  // reads the field
  bool json_key = true;            // a custom machine may set it (scenario/machine_json.cpp)
  std::vector<Evidence> evidence;  // the first entry that names the preset (or names none)

  // The kind and evidence for a preset key; nullptr where no entry covers it (a test checks
  // that every preset is covered).
  const Evidence* evidence_for(std::string_view preset_key) const;
};

// Every Machine field that is a figure, in the struct's order.
std::span<const MachineParameter> machine_parameters();
const MachineParameter* find_machine_parameter(std::string_view name);
// The Machine fields that are labels, not figures: key, name, source.
std::span<const std::string_view> machine_labels();

// A figure that is not per preset: a per-rung TimingOptions field (its value is the default,
// each rung's own is in kernels/variants.cpp) or a constant of the step costs or the DRAM's
// read share.
struct ModelParameter {
  std::string name;   // the field or constant
  std::string where;  // the file that holds it
  std::string unit;
  ParameterGroup group = ParameterGroup::timing;
  std::string meaning;
  std::string value;  // formatted from the field's default or the constant itself
  ParameterKind kind = ParameterKind::assumed;
  std::string source;
};

// The rows themselves are in sim/timing/model_parameters.hpp (rung_parameters, model_constants):
// they read timing/'s and memory/'s headers, which sit above machine/.

}  // namespace tilesim::sim
