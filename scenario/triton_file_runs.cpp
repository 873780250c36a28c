// A user's Triton kernel files run on a GPU (see triton_file_runs.hpp).
#include "scenario/triton_file_runs.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "scenario/bundled_asset.hpp"

namespace tilesim::scenario {
namespace {

using nlohmann::json;

std::string text_of(const json& o, const char* field, const std::string& where) {
  if (!o.contains(field)) return {};
  if (!o.at(field).is_string()) throw std::runtime_error(where + ": " + field + " is not a string");
  return o.at(field).get<std::string>();
}

}  // namespace

TritonFileRuns parse_triton_file_runs_json(std::string_view text, const std::string& source) {
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw std::runtime_error(source + ": not a JSON object");
  if (text_of(j, "format", source) != "tilesim-triton-files/1")
    throw std::runtime_error(source + ": format is not tilesim-triton-files/1");
  TritonFileRuns out;
  out.source = source;
  if (j.contains("header")) {
    const json& h = j.at("header");
    if (!h.is_object()) throw std::runtime_error(source + ": header is not an object");
    out.gpu = text_of(h, "gpu", source + " header");
    out.date = text_of(h, "date", source + " header").substr(0, 10);
    out.triton = text_of(h, "triton", source + " header");
  }
  if (!j.contains("records") || !j.at("records").is_array())
    throw std::runtime_error(source + ": records is not an array");
  for (const json& r : j.at("records")) {
    const std::string where = source + " record " + std::to_string(out.runs.size());
    if (!r.is_object()) throw std::runtime_error(where + ": not an object");
    if (r.contains("error")) continue;  // the file did not run; the script kept why
    TritonFileRun run;
    run.file = text_of(r, "file", where);
    run.function = text_of(r, "function", where);
    run.launch = text_of(r, "launch", where);
    run.reference = text_of(r, "reference", where);
    if (r.contains("correct")) {
      if (!r.at("correct").is_boolean())
        throw std::runtime_error(where + ": correct is not true/false");
      run.checked = true;
      run.correct = r.at("correct").get<bool>();
    }
    if (!r.contains("median_ms") || !r.at("median_ms").is_number())
      throw std::runtime_error(where + ": median_ms is not a number");
    run.median_ms = r.at("median_ms").get<double>();
    if (!std::isfinite(run.median_ms) || run.median_ms <= 0 || run.median_ms > 1e7)
      throw std::runtime_error(where + ": median_ms is out of range (0, 1e7]");
    if (run.file.empty()) throw std::runtime_error(where + ": file is missing");
    out.runs.push_back(std::move(run));
  }
  return out;
}

const TritonFileRuns* bundled_triton_file_runs(const std::string& machine_key) {
  if (machine_key.empty()) return nullptr;
  return bundled_asset<parse_triton_file_runs_json>("measured/triton_files_" + machine_key +
                                                    ".json");
}

}  // namespace tilesim::scenario
