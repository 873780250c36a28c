// A lane is outside when its element offset is negative or at or past the tensor's last
// element + 1 (the furthest offset its shape and strides reach): the addresses a real GPU run
// would fault on or silently corrupt.
#include "triton/bounds_check.hpp"

#include <algorithm>
#include <exception>
#include <map>
#include <thread>
#include <utility>

namespace tilesim::triton {

std::string OutOfBounds::text() const {
  return "pid " + std::to_string(pid) + ", line " + std::to_string(pos.line) + ": " +
         std::to_string(lanes) + " lanes of " + tensor + (store ? " written" : " read") +
         " outside it" + (masked ? " (the mask leaves them on)" : " (no mask)");
}

std::string AlwaysTrueMask::text(std::int64_t programs) const {
  return "line " + std::to_string(pos.line) + ": the mask of this " +
         (store ? "store to " : "load of ") + tensor + " is true for every lane of all " +
         std::to_string(programs) +
         " programs: at these sizes (multiples of the blocks) it only costs its compares; keep it "
         "for the sizes that are not";
}

namespace {

// Per masked access (its source position): the access and whether any lane of any program was
// masked off.
struct SeenMask {
  AlwaysTrueMask access;
  bool some_off = false;
};
struct ChunkCheck {
  std::vector<OutOfBounds> out_of_bounds;
  std::map<std::pair<int, int>, SeenMask> masked;
};

// The programs pids[begin, end) checked in order.
ChunkCheck check_chunk(const Evaluator& ev, const std::vector<std::int64_t>& pids,
                       std::size_t begin, std::size_t end) {
  ChunkCheck out;
  std::int64_t pid = 0;
  // Each access is checked as the evaluator makes it and its lanes dropped (EvalOptions), so a
  // program's memory stays one access's: every program of an 8192^3 launch is checked.
  EvalOptions opt;
  opt.keep_access_tiles = false;
  opt.on_access = [&](std::size_t, const Record& r) {
    const AccessRecord& a = r.access;
    const auto& t =
        std::get<TensorDesc>(ev.launch().args[static_cast<std::size_t>(a.tensor)].value);
    const __int128 end_offset = t.end();
    const bool store = r.kind == RecordKind::store;
    if (a.has_mask && a.mask.known) {
      auto [it, fresh] = out.masked.try_emplace({r.pos.line, r.pos.col});
      if (fresh) it->second.access = {r.pos, store, a.tensor_name};
      if (!it->second.some_off)
        for (const std::int64_t m : a.mask.ints)
          if (m == 0) {
            it->second.some_off = true;
            break;
          }
    }
    if (!a.offsets.known) return;  // addresses from loaded data: nothing to say
    const std::int64_t* off = a.offsets.ints.data();
    const std::int64_t* mask = a.has_mask && a.mask.known ? a.mask.ints.data() : nullptr;
    std::int64_t lanes = 0;
    for (std::int64_t i = 0; i < a.offsets.lanes(); ++i) {
      const bool on = mask == nullptr || mask[i] != 0;
      lanes += on && (off[i] < 0 || off[i] >= end_offset);
    }
    if (lanes > 0)
      out.out_of_bounds.push_back({pid, r.pos, store, a.has_mask, a.tensor_name, lanes});
  };
  for (std::size_t i = begin; i < end; ++i) {
    pid = pids[i];
    (void)ev.run(pid, opt);
  }
  return out;
}

}  // namespace

KernelCheck check_kernel(const Evaluator& ev, std::vector<std::int64_t> pids) {
  if (pids.empty())
    for (std::int64_t p = 0; p < ev.launch().programs(); ++p) pids.push_back(p);
  // Programs are independent (the evaluator is const; each run has its own frame): contiguous
  // chunks on the machine's cores, merged in pid order, so the report is the same on any machine.
  // A chunk stops at its first refused program; the earliest chunk's refusal is the first pid's.
  constexpr std::size_t kMinPidsPerThread = 16;
  const std::size_t threads = std::clamp<std::size_t>(
      std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()), 16), 1,
      std::max<std::size_t>(1, pids.size() / kMinPidsPerThread));
  std::vector<ChunkCheck> chunks(threads);
  std::vector<std::exception_ptr> errors(threads);
  {
    std::vector<std::jthread> workers;
    for (std::size_t t = 0; t < threads; ++t)
      workers.emplace_back([&, t] {
        try {
          chunks[t] =
              check_chunk(ev, pids, pids.size() * t / threads, pids.size() * (t + 1) / threads);
        } catch (...) {
          errors[t] = std::current_exception();
        }
      });
  }
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  KernelCheck out;
  std::map<std::pair<int, int>, SeenMask> masked;
  for (ChunkCheck& c : chunks) {
    for (auto& o : c.out_of_bounds) out.out_of_bounds.push_back(std::move(o));
    for (auto& [pos, seen] : c.masked) {
      auto [it, fresh] = masked.try_emplace(pos, seen);
      if (!fresh) it->second.some_off = it->second.some_off || seen.some_off;
    }
  }
  for (const auto& [pos, seen] : masked)
    if (!seen.some_off) out.always_true.push_back(seen.access);
  return out;
}

std::vector<OutOfBounds> out_of_bounds(const Evaluator& ev, std::vector<std::int64_t> pids) {
  return check_kernel(ev, std::move(pids)).out_of_bounds;
}

}  // namespace tilesim::triton
