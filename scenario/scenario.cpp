// Strict JSON (de)serialisation of scenarios with nlohmann::json.
#include "scenario/scenario.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "scenario/file_io.hpp"
#include "scenario/kernel_file.hpp"
#include "scenario/problem_json.hpp"

namespace tilesim::scenario {
namespace {

using nlohmann::json;

std::string where(std::string_view text, std::size_t byte) {
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

std::string string_field(const json& v, const char* key) {
  if (!v.is_string()) throw sim::InvalidField(key, std::string(key) + " must be a string");
  return v.get<std::string>();
}

}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& source) {
  if (text.size() > kMaxScenarioBytes)
    throw ScenarioError(source + ": file is " + std::to_string(text.size()) +
                        " bytes; a scenario may be at most " + std::to_string(kMaxScenarioBytes));
  json j;
  try {
    j = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    throw ScenarioError(source + ": not valid JSON at " + where(text, e.byte ? e.byte - 1 : 0) +
                        ": " + e.what());
  } catch (const json::exception& e) {  // e.g. a number too large for a double (1e400)
    throw ScenarioError(source + ": not valid JSON: " + e.what());
  }
  if (!j.is_object()) throw ScenarioError(source + ": the top level must be a JSON object {...}");
  Scenario s;
  auto& p = s.problem;
  std::string problem_key;  // a problem field given beside "triton_file"
  try {
    for (const auto& [key, v] : j.items()) {
      const char* k = key.c_str();
      if (key == "name")
        s.name = string_field(v, k);
      else if (key == "title")
        s.title = string_field(v, k);
      else if (key == "description")
        s.description = string_field(v, k);
      else if (key == "compare_order") {
        if (!v.is_null()) s.compare_order = read_enum<sim::LaunchOrder>(v, key);
      } else if (key == "triton_file") {
        s.triton_file = string_field(v, k);
      } else if (key == "triton_function") {
        s.triton_function = string_field(v, k);
      } else if (key == "triton_args") {
        if (!v.is_array()) throw sim::InvalidField(k, "triton_args must be an array of strings");
        for (const auto& w : v) s.triton_args.push_back(string_field(w, k));
      } else if (read_problem_field(p, key, v)) {
        problem_key = key;
        continue;
      } else if (key == "machine")
        s.machine = string_field(v, k);
      else if (key == "custom_machine") {
        if (!v.is_object()) throw sim::InvalidField(k, "custom_machine must be a JSON object");
        s.custom_machine_json = v.dump();
      } else if (key == "programs_per_sm") {
        if (!v.is_null()) {
          const int x = read_int(v, key);
          sim::check_programs_per_sm(x);
          s.programs_per_sm = x;
        }
      } else {
        throw sim::InvalidField(
            key, "unknown field \"" + key + "\" (see assets/scenarios/README.md for the fields)");
      }
    }
    if (!s.triton_file.empty()) {
      // The file gives the problem (the bridge recognises it): a field that would set it
      // another way is refused, as tilesim-cli refuses --m beside --triton.
      if (!problem_key.empty())
        throw sim::InvalidField(problem_key, problem_key +
                                                 " cannot be combined with triton_file: the "
                                                 "kernel file and triton_args give the problem");
      std::error_code ec;
      const std::filesystem::path dir = std::filesystem::path(source).parent_path();
      s.triton_path = resolve_kernel_path(
          s.triton_file, !dir.empty() && std::filesystem::is_directory(dir, ec) ? dir : "");
      if (s.triton_path.empty())
        throw sim::InvalidField("triton_file", "triton_file \"" + s.triton_file +
                                                   "\" is neither beside the scenario nor under " +
                                                   assets_dir().string());
      Scenario file =
          open_kernel_file(s.triton_path.string(), s.triton_function, s.triton_args).scenario;
      p = file.problem;
      s.file_plan = file.file_plan;
      if (s.name.empty()) s.name = file.name;
      if (s.title.empty()) s.title = file.title;
      if (s.description.empty()) s.description = file.description;
    } else if (!s.triton_function.empty() || !s.triton_args.empty()) {
      throw sim::InvalidField("triton_file", "triton_function and triton_args need triton_file");
    }
    sim::Problem checked(p);  // validates every field
    (void)checked;
  } catch (const sim::InvalidField& e) {
    throw ScenarioError(source + ": " + e.what());
  }
  return s;
}

Scenario load_scenario(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw ScenarioError(path.string() + ": no such scenario file");
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw ScenarioError(path.string() + ": cannot read: " + ec.message());
  if (size > kMaxScenarioBytes)
    throw ScenarioError(path.string() + ": file is " + std::to_string(size) +
                        " bytes; a scenario may be at most " + std::to_string(kMaxScenarioBytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path.string() + ": cannot open for reading");
  std::ostringstream buf;
  buf << in.rdbuf();
  return parse_scenario(buf.str(), path.string());
}

std::string to_json(const Scenario& s) {
  // A kernel file's problem is the file's: saved as the file, not as its fields.
  json j = s.triton_file.empty() ? problem_to_json(s.problem) : json::object();
  if (!s.triton_file.empty()) {
    j["triton_file"] = s.triton_file;
    if (!s.triton_function.empty()) j["triton_function"] = s.triton_function;
    if (!s.triton_args.empty()) j["triton_args"] = s.triton_args;
  }
  j["name"] = s.name;
  j["title"] = s.title;
  j["description"] = s.description;
  j["machine"] = s.machine;
  if (s.programs_per_sm) j["programs_per_sm"] = *s.programs_per_sm;
  if (s.compare_order) j["compare_order"] = sim::to_string(*s.compare_order);
  if (!s.custom_machine_json.empty()) j["custom_machine"] = json::parse(s.custom_machine_json);
  return j.dump(2) + "\n";
}

void save_scenario(const Scenario& s, const std::filesystem::path& path) {
  write_file_atomic(path, to_json(s));
}

std::filesystem::path assets_dir() {
  if (const char* env = std::getenv("TILESIM_ASSETS"); env && *env) return env;
  return TILESIM_ASSETS_DIR;
}

std::vector<std::filesystem::path> list_scenarios(const std::filesystem::path& dir) {
  // The teaching order of assets/scenarios/README.md.
  static const char* const kCurriculum[] = {"seed000_copy_5x5",
                                            "seed000_transpose_3x4",
                                            "seed000_transpose_4x4_blocks",
                                            "triton_9x9_grouped",
                                            "seed004_574_grouped",
                                            "seed004_kernel_file",
                                            "wrap_574_triton_tutorial",
                                            "seed003_b_transposed",
                                            "measured_h200_transpose_8192",
                                            "measured_h200_matmul_4096_fp16",
                                            "measured_h100_wgmma_8192_fp16",
                                            "measured_h100_triton_4096_fp16",
                                            "measured_h100_sweep_4096_fp16",
                                            "measured_h100_sweep_8192_fp16",
                                            "big_8192_fp16"};
  const auto rank = [](const std::filesystem::path& p) {
    const auto* end = std::end(kCurriculum);
    return std::find(std::begin(kCurriculum), end, p.stem().string()) - std::begin(kCurriculum);
  };
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end(), [&](const auto& a, const auto& b) {
    const auto ra = rank(a), rb = rank(b);
    return ra != rb ? ra < rb : a < b;
  });
  return out;
}

}  // namespace tilesim::scenario
