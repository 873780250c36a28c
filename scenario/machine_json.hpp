// The machine a scenario runs on: a preset by key, or a custom machine given field by field
// ("custom_machine": {"base": "h100", "l2_bytes": 8388608, ...}), starting from a preset.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "scenario/scenario.hpp"
#include "sim/machine/machine.hpp"

namespace tilesim::scenario {

// Parse a custom machine object (JSON text). Keys: base (preset key, default "h100") and the
// fields of sim::Machine listed once in machine_json.cpp's for_each_machine_field (name, sms,
// l2_bytes, ..., the timing figures). Unknown keys and wrong types throw sim::InvalidField
// ("custom_machine.<key>"); the result is validated (sim::validate_machine).
sim::Machine parse_machine_json(std::string_view json_text);

// Every key a custom machine may set besides `base`, in for_each_machine_field's order (the
// parameter table's test checks each against sim::machine_parameters).
std::vector<std::string> machine_json_keys();

// Every field of `m` a replay reads (its preset key and each field a custom machine may set, timing
// figures included), as compact JSON: machines with equal keys replay alike. Caches of results
// computed on a machine (the sweep, the rungs' predictions) key on it.
std::string machine_key(const sim::Machine& m);

// The scenario's machine: custom_machine_json when present, else the preset `machine`
// (throws sim::InvalidField("machine") naming the allowed presets).
sim::Machine machine_of(const Scenario& s);

}  // namespace tilesim::scenario
