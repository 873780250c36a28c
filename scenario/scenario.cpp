// Strict JSON (de)serialisation of scenarios with nlohmann::json.
#include "scenario/scenario.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

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

template <class E>
E enum_field(const json& v, const char* key, std::optional<E> (*parse)(std::string_view)) {
  if (!v.is_string())
    throw sim::InvalidField(
        key, std::string(key) + " must be a string: one of " + sim::allowed_names<E>());
  const auto s = v.get<std::string>();
  if (auto e = parse(s)) return *e;
  throw sim::InvalidField(
      key, std::string(key) + " = \"" + s + "\" is unknown: allowed " + sim::allowed_names<E>());
}

std::int64_t int_field(const json& v, const char* key) {
  if (!v.is_number_integer())
    throw sim::InvalidField(key, std::string(key) + " must be an integer, got " +
                                     std::string(v.type_name()) + " " + v.dump());
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
    throw sim::InvalidField(key, std::string(key) + " = " + v.dump() + " is far out of range");
  return v.get<std::int64_t>();
}

int small_int(const json& v, const char* key) {
  const auto x = int_field(v, key);
  if (x < INT32_MIN || x > INT32_MAX)
    throw sim::InvalidField(key,
                            std::string(key) + " = " + std::to_string(x) + " is far out of range");
  return static_cast<int>(x);
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
  try {
    for (const auto& [key, v] : j.items()) {
      const char* k = key.c_str();
      if (key == "name")
        s.name = string_field(v, k);
      else if (key == "title")
        s.title = string_field(v, k);
      else if (key == "description")
        s.description = string_field(v, k);
      else if (key == "kernel")
        p.kernel = enum_field<sim::Kernel>(v, k, sim::parse_kernel);
      else if (key == "dtype")
        p.dtype = enum_field<sim::DType>(v, k, sim::parse_dtype);
      else if (key == "b_layout")
        p.b_layout = enum_field<sim::BLayout>(v, k, sim::parse_b_layout);
      else if (key == "boundary")
        p.boundary = enum_field<sim::Boundary>(v, k, sim::parse_boundary);
      else if (key == "order")
        p.order = enum_field<sim::LaunchOrder>(v, k, sim::parse_launch_order);
      else if (key == "compare_order") {
        if (!v.is_null())
          s.compare_order = enum_field<sim::LaunchOrder>(v, k, sim::parse_launch_order);
      } else if (key == "m")
        p.m = int_field(v, k);
      else if (key == "n")
        p.n = int_field(v, k);
      else if (key == "k")
        p.k = int_field(v, k);
      else if (key == "block_m")
        p.block_m = small_int(v, k);
      else if (key == "block_n")
        p.block_n = small_int(v, k);
      else if (key == "block_k")
        p.block_k = small_int(v, k);
      else if (key == "group_size_m")
        p.group_size_m = int_field(v, k);
      else if (key == "stages")
        p.stages = small_int(v, k);
      else if (key == "machine")
        s.machine = string_field(v, k);
      else if (key == "custom_machine") {
        if (!v.is_object()) throw sim::InvalidField(k, "custom_machine must be a JSON object");
        s.custom_machine_json = v.dump();
      } else if (key == "programs_per_sm") {
        if (!v.is_null()) {
          const int x = small_int(v, k);
          if (x < 1 || x > 64)
            throw sim::InvalidField(
                k, "programs_per_sm = " + std::to_string(x) + " is out of range: allowed 1..64");
          s.programs_per_sm = x;
        }
      } else {
        throw sim::InvalidField(
            key, "unknown field \"" + key + "\" (see assets/scenarios/README.md for the fields)");
      }
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
  const auto& p = s.problem;
  json j = json::object();
  j["name"] = s.name;
  j["title"] = s.title;
  j["description"] = s.description;
  j["kernel"] = sim::to_string(p.kernel);
  j["m"] = p.m;
  j["n"] = p.n;
  j["k"] = p.k;
  j["dtype"] = sim::to_string(p.dtype);
  j["b_layout"] = sim::to_string(p.b_layout);
  j["block_m"] = p.block_m;
  j["block_n"] = p.block_n;
  j["block_k"] = p.block_k;
  j["group_size_m"] = p.group_size_m;
  j["order"] = sim::to_string(p.order);
  j["boundary"] = sim::to_string(p.boundary);
  j["stages"] = p.stages;
  j["machine"] = s.machine;
  if (s.programs_per_sm) j["programs_per_sm"] = *s.programs_per_sm;
  if (s.compare_order) j["compare_order"] = sim::to_string(*s.compare_order);
  if (!s.custom_machine_json.empty()) j["custom_machine"] = json::parse(s.custom_machine_json);
  return j.dump(2) + "\n";
}

void write_file_atomic(const std::filesystem::path& path, std::string_view bytes) {
  const auto dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw std::runtime_error(path.string() + ": cannot save: folder " + dir.string() +
                             " does not exist");
  std::string tmp_name = ".";  // hidden sibling, so the rename stays on one file system
  tmp_name.append(path.filename().string()).append(".tmp-").append(std::to_string(::getpid()));
  const auto tmp = dir / tmp_name;
  {
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw std::runtime_error(path.string() + ": cannot save: folder is not writable");
    const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size() &&
                    std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
    if (std::fclose(f) != 0 || !ok) {
      std::filesystem::remove(tmp, ec);
      throw std::runtime_error(path.string() + ": cannot save: write failed (disk full?)");
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw std::runtime_error(path.string() + ": cannot save: " + ec.message());
  }
}

void save_scenario(const Scenario& s, const std::filesystem::path& path) {
  write_file_atomic(path, to_json(s));
}

std::filesystem::path assets_dir() {
  if (const char* env = std::getenv("TILESIM_ASSETS"); env && *env) return env;
  return TILESIM_ASSETS_DIR;
}

}  // namespace tilesim::scenario
