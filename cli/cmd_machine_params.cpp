// `tilesim-cli machine-params [--json | --markdown] [--machine NAME]`: the parameter table
// (sim/machine/parameters, sim/timing/model_parameters) — every Machine field of every preset
// with its unit, value, kind and evidence, then the per-rung fields and the model's constants.
// docs/PARAMETERS.md is this command's --markdown (scripts/parameters_md writes it).
#include <array>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "sim/machine/parameters.hpp"
#include "sim/program/problem.hpp"
#include "sim/timing/model_parameters.hpp"

namespace tilesim::cli {
namespace {

using sim::Machine;
using sim::MachineParameter;
using sim::ModelParameter;

std::string str(std::string_view s) {
  return std::string(s);
}

std::vector<Machine> chosen_presets(const std::string& name) {
  if (name.empty()) {
    const auto all = sim::machine_presets();
    return {all.begin(), all.end()};
  }
  if (auto m = sim::find_machine(name)) return {*m};
  throw sim::InvalidField("machine",
                          "machine = \"" + name + "\" is unknown: allowed " + sim::machine_names());
}

nlohmann::json value_json(const sim::ParameterValue& v) {
  if (v.is_flag) return v.number != 0;
  if (v.is_integer) return static_cast<std::int64_t>(v.number);
  return v.number;
}

nlohmann::json model_json(const ModelParameter& p, const char* value_key) {
  return {{"name", p.name},
          {"where", p.where},
          {"unit", p.unit},
          {"group", str(sim::to_string(p.group))},
          {"meaning", p.meaning},
          {value_key, p.value},
          {"kind", str(sim::to_string(p.kind))},
          {"evidence", p.source}};
}

nlohmann::json table_json(const std::vector<Machine>& presets) {
  nlohmann::json keys = nlohmann::json::array(), rows = nlohmann::json::array();
  for (const auto& m : presets) keys.push_back(m.key);
  for (const auto& p : sim::machine_parameters()) {
    nlohmann::json per = nlohmann::json::object();
    for (const auto& m : presets) {
      const sim::Evidence* e = p.evidence_for(m.key);
      per[m.key] = {{"value", value_json(p.value(m))},
                    {"kind", e ? str(sim::to_string(e->kind)) : "?"},
                    {"evidence", e ? e->source : ""}};
    }
    rows.push_back({{"name", p.name},
                    {"unit", p.unit},
                    {"group", str(sim::to_string(p.group))},
                    {"meaning", p.meaning},
                    {"custom_machine_key", p.json_key},
                    {"presets", per}});
  }
  nlohmann::json rung = nlohmann::json::array(), constants = nlohmann::json::array(),
                 labels = nlohmann::json::array();
  for (const auto& p : sim::rung_parameters()) rung.push_back(model_json(p, "default"));
  for (const auto& p : sim::model_constants()) constants.push_back(model_json(p, "value"));
  for (const auto l : sim::machine_labels()) labels.push_back(str(l));
  return {{"presets", keys},
          {"machine_parameters", rows},
          {"labels", labels},
          {"rung_parameters", rung},
          {"constants", constants}};
}

void print_text(const std::vector<Machine>& presets) {
  std::printf("Machine fields: value per preset, kind and evidence (sim/machine/parameters.cpp)\n");
  for (const auto& p : sim::machine_parameters()) {
    std::printf("\n%s [%s, %s]: %s\n", p.name.c_str(), p.unit.c_str(),
                str(sim::to_string(p.group)).c_str(), p.meaning.c_str());
    for (const auto& m : presets) {
      const sim::Evidence* e = p.evidence_for(m.key);
      std::printf("  %-5s %-12s %-9s %s\n", m.key.c_str(), sim::format_value(p.value(m)).c_str(),
                  e ? str(sim::to_string(e->kind)).c_str() : "?", e ? e->source.c_str() : "");
    }
  }
  const auto print_model = [](const char* title, std::span<const ModelParameter> rows) {
    std::printf("\n%s\n", title);
    for (const auto& p : rows)
      std::printf("\n%s (%s) [%s, %s] = %s: %s\n  %-9s %s\n", p.name.c_str(), p.where.c_str(),
                  p.unit.c_str(), str(sim::to_string(p.group)).c_str(), p.value.c_str(),
                  p.meaning.c_str(), str(sim::to_string(p.kind)).c_str(), p.source.c_str());
  };
  print_model("Per rung (sim::TimingOptions; each rung's values: tilesim-cli variants --json)",
              sim::rung_parameters());
  print_model("Constants", sim::model_constants());
}

// A Markdown table cell: '|' would end the cell.
std::string cell(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

// "datasheet (t4): ...; measured (h200): ..." — the presets each entry holds for, named only
// where the chosen presets read more than one entry.
std::string evidence_cell(const MachineParameter& p, const std::vector<Machine>& presets) {
  std::vector<std::pair<const sim::Evidence*, std::string>> used;  // entry, its presets
  for (const auto& e : p.evidence) {
    std::string keys;
    for (const auto& m : presets)
      if (p.evidence_for(m.key) == &e) keys += (keys.empty() ? "" : " ") + m.key;
    if (!keys.empty()) used.emplace_back(&e, keys);
  }
  std::string out;
  for (const auto& [e, keys] : used) {
    if (!out.empty()) out += "; ";
    out += "**" + str(sim::to_string(e->kind)) + "**";
    if (used.size() > 1) out += " (" + keys + ")";
    out += ": " + e->source;
  }
  return cell(out);
}

void print_markdown(const std::vector<Machine>& presets) {
  std::printf(
      "# Parameters: every figure the model reads, with its evidence\n\n"
      "Generated by `tilesim-cli machine-params --markdown` (`scripts/parameters_md`); do not "
      "edit: the rows live in `sim/machine/parameters.cpp` and `sim/timing/model_parameters.cpp`, "
      "and `tests/cli/machine_params_test.cpp` fails when this file differs from them. What each "
      "part of the model does with these figures: docs/MODEL.md.\n\n"
      "Kinds: **datasheet** (a vendor document), **measured** (read off a measurement — "
      "tilesim's probes in `kernels/probes/`, ncu, tilesim-bench, files in `assets/measured/`, or "
      "a published microbenchmark — without running the model), **fitted** (chosen so that the "
      "model reproduces a measured figure; the fit set is named), **inherited** (a T4 or A100 "
      "figure copied from an H100/H200 one), **assumed** (an estimate or modelling choice with "
      "no measurement behind it), **code** (what a rung's own code does). Group: where the field "
      "would sit if `sim::Machine` were split (sheet, memory, timing).\n\n");
  constexpr std::array kKinds{sim::ParameterKind::datasheet, sim::ParameterKind::measured,
                              sim::ParameterKind::fitted, sim::ParameterKind::inherited,
                              sim::ParameterKind::assumed};
  std::printf("## Kinds per preset (machine fields)\n\n| preset |");
  for (const auto k : kKinds) std::printf(" %s |", str(sim::to_string(k)).c_str());
  std::printf("\n| --- | --- | --- | --- | --- | --- |\n");
  for (const auto& m : presets) {
    std::printf("| %s |", m.key.c_str());
    for (const auto k : kKinds) {
      int n = 0;
      for (const auto& p : sim::machine_parameters()) {
        const auto* e = p.evidence_for(m.key);
        n += e && e->kind == k;
      }
      std::printf(" %d |", n);
    }
    std::printf("\n");
  }
  std::printf("\n## Machine fields (`sim::Machine`, per preset)\n\n| field | group | unit |");
  for (const auto& m : presets) std::printf(" %s |", m.key.c_str());
  std::printf(" kind: evidence | what it does |\n| --- | --- | --- |");
  for (std::size_t i = 0; i < presets.size(); ++i) std::printf(" --- |");
  std::printf(" --- | --- |\n");
  for (const auto& p : sim::machine_parameters()) {
    std::printf("| `%s` | %s | %s |", p.name.c_str(), str(sim::to_string(p.group)).c_str(),
                cell(p.unit).c_str());
    for (const auto& m : presets) std::printf(" %s |", sim::format_value(p.value(m)).c_str());
    std::printf(" %s | %s |\n", evidence_cell(p, presets).c_str(), cell(p.meaning).c_str());
  }
  std::printf("\nLabels, not figures:");
  for (const auto l : sim::machine_labels()) std::printf(" `%s`", str(l).c_str());
  std::printf(
      " (`source` names each preset's documents). A custom machine (scenario JSON "
      "`custom_machine`) may set every field above but `l2_line_bytes` and "
      "`l2_sector_bytes`.\n");
  const auto print_model = [](const char* title, const char* value_title,
                              std::span<const ModelParameter> rows) {
    std::printf(
        "\n## %s\n\n| name | file | unit | %s | kind: evidence | what it does |\n"
        "| --- | --- | --- | --- | --- | --- |\n",
        title, value_title);
    for (const auto& p : rows)
      std::printf("| `%s` | %s | %s | %s | **%s**: %s | %s |\n", p.name.c_str(), p.where.c_str(),
                  cell(p.unit).c_str(), cell(p.value).c_str(), str(sim::to_string(p.kind)).c_str(),
                  cell(p.source).c_str(), cell(p.meaning).c_str());
  };
  print_model("Per rung (`sim::TimingOptions`; each rung's values: `tilesim-cli variants --json`)",
              "default", sim::rung_parameters());
  print_model("Constants", "value", sim::model_constants());
}

}  // namespace

Action add_machine_params_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "machine-params",
      "The parameter table: every machine field of every preset with its unit, value, kind "
      "(datasheet, measured, fitted, inherited, assumed) and evidence; then the per-rung fields "
      "and the model's constants");
  struct Options {
    bool json = false, markdown = false;
    std::string machine;
  };
  auto o = std::make_shared<Options>();
  auto* json = cmd->add_flag("--json", o->json, "Machine-readable output");
  cmd->add_flag("--markdown", o->markdown, "docs/PARAMETERS.md")->excludes(json);
  cmd->add_option("--machine", o->machine, "Only this preset (" + sim::machine_names() + ")");
  return [o]() {
    const auto presets = chosen_presets(o->machine);
    if (o->json)
      std::printf("%s\n", table_json(presets).dump(2).c_str());
    else if (o->markdown)
      print_markdown(presets);
    else
      print_text(presets);
    return 0;
  };
}

}  // namespace tilesim::cli
