// Work off the UI thread: a computation keyed by its inputs runs on a worker thread with a
// progress value and a stop request; the frame loop polls for the latest finished result, so the
// window never waits. A new key supersedes the old computation (asked to stop, result dropped).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>

namespace tilesim::app {

template <class R>
class AsyncJob {
 public:
  using Work = std::function<R(std::stop_token, std::atomic<double>& progress)>;

  // Starts `work` unless `key` is already running or finished.
  // A key the user cancelled is not restarted by the frame loop asking for it again; any other
  // key clears that.
  void request(const std::string& key, Work work) {
    {
      std::lock_guard lock(m_state->mutex);
      if (key == m_state->wanted_key || key == m_state->cancelled_key) return;
      m_state->wanted_key = key;
      m_state->cancelled_key.clear();
    }
    cancel_running();
    auto run = std::make_shared<Run>();
    run->key = key;
    m_run = run;
    auto state = m_state;
    std::jthread t([state, run, work = std::move(work)](std::stop_token st) {
      // An exception must not leave the thread (std::terminate): it becomes the job's error.
      std::optional<R> value;
      std::string error;
      try {
        value = work(st, run->progress);
      } catch (const std::exception& e) {
        error = e.what();
      } catch (...) {
        error = "unknown error";
      }
      run->done = true;
      if (st.stop_requested()) return;
      std::lock_guard lock(state->mutex);
      if (state->wanted_key != run->key) return;
      if (value) {
        state->result = std::move(value);
        state->result_key = run->key;
        state->error.clear();
      } else {
        state->error = error;
      }
    });
    run->stop = t.get_stop_source();
    t.detach();  // the shared state outlives the window; a superseded run just finishes
  }
  void cancel() {
    cancel_running();
    std::lock_guard lock(m_state->mutex);
    m_state->cancelled_key = m_state->wanted_key;
    m_state->wanted_key.clear();
  }
  // Why the last requested computation failed ("" if it did not).
  std::string error() const {
    std::lock_guard lock(m_state->mutex);
    return m_state->error;
  }
  bool pending() const { return m_run && !m_run->done && !m_run->stop.stop_requested(); }
  double progress() const { return m_run ? m_run->progress.load() : 0.0; }
  // The latest finished result and the key it belongs to (may be older than the last request).
  std::optional<R> result() const {
    std::lock_guard lock(m_state->mutex);
    return m_state->result;
  }
  bool current() const {
    std::lock_guard lock(m_state->mutex);
    return m_state->result && m_state->result_key == m_state->wanted_key;
  }

 private:
  struct Run {
    std::string key;
    std::atomic<double> progress{0.0};
    std::atomic<bool> done{false};
    std::stop_source stop{std::nostopstate};
  };
  struct State {
    std::mutex mutex;
    std::string wanted_key, result_key, cancelled_key;
    std::optional<R> result;
    std::string error;
  };
  void cancel_running() {
    if (m_run && !m_run->done && m_run->stop.stop_possible()) m_run->stop.request_stop();
  }
  std::shared_ptr<State> m_state = std::make_shared<State>();
  std::shared_ptr<Run> m_run;
};

}  // namespace tilesim::app
