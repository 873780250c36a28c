// Per-rung predictions of the GPU panel (see rung_predictions.hpp).
#include "app/core/rung_predictions.hpp"

#include <algorithm>
#include <exception>

#include "kernels/rung_timing.hpp"
#include "scenario/problem_identity.hpp"
#include "sim/program/occupancy.hpp"
#include "sim/replay/replay.hpp"

namespace tilesim::app {

std::string rung_predictions_key(const std::vector<RungRow>& rows, const std::string& machine) {
  std::string key = machine;
  for (const auto& r : rows) key += "|" + r.variant + ":" + scenario::problem_key(r.spec);
  return key;
}

RungPredictions predict_rungs(const std::vector<RungRow>& rows, const sim::Machine& m,
                              std::stop_token st, std::atomic<double>& progress) {
  std::atomic<bool> cancel{false};
  const std::stop_callback on_stop(st, [&cancel] { cancel = true; });
  RungPredictions out;
  for (std::size_t i = 0; i < rows.size() && !st.stop_requested(); ++i) {
    RungPrediction& p = out.emplace_back();
    p.row = rows[i];
    const kernels::Variant* v = kernels::find_variant(p.row.variant);
    const auto described = v ? kernels::rung_timing(*v, p.row.spec) : std::nullopt;
    if (described) {
      p.modelled = true;
      p.timed = described->spec;
      try {
        const sim::Problem problem(p.timed);
        p.timing = sim::predicted_timing(
            problem, m, sim::occupancy(problem, m, std::nullopt, described->timing),
            described->timing, &cancel);
      } catch (const std::exception& e) {
        p.error = e.what();
      }
    }
    progress = double(i + 1) / double(rows.size());
  }
  return out;
}

const RungPrediction* find_prediction(const RungPredictions& p, const RungRow& row) {
  const auto it =
      std::find_if(p.begin(), p.end(), [&](const RungPrediction& x) { return x.row == row; });
  return it == p.end() ? nullptr : &*it;
}

}  // namespace tilesim::app
