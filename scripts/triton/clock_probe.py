"""The SM clock and board power while do_bench times each configuration, as the sweep times it.

python3 clock_probe.py --out DIR [--split fit] [--dot wgmma] [--deadline S] [--precompile J]

Why: Triton's math-bound kernels run faster per K step when they are short (one wave at 2048^3)
than when they are long (16384^3), and an H100 and an H200 (same SMs, same 700 W) part ways only
on long kernels: the power-limited clock is the suspect. do_bench zeroes a 256 MB buffer before
every run, so a short kernel spends most of the loop beside a memory-bound memset and its
clock should stay near the maximum; a long one sets the board's power and its clock falls.
This measures the clock instead of fitting it: a sampler thread reads NVML's SM clock (and
power, and the clock-event reasons) every ~2 ms while do_bench runs each configuration of the
measured file's chosen split, and the flush's own time is timed with CUDA events.
Writes DIR/header.json and DIR/clocks.jsonl (one line per configuration).
"""
import argparse
import json
import os
import sys
import threading
import time

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import measure as M  # noqa: E402
from nvml import CNvml  # noqa: E402


class Sampler:
    """NVML SM clock (MHz), power (W) and clock-event reasons, sampled on a thread."""

    def __init__(self, period_s=0.002):
        self.lib = None
        try:
            import pynvml as nv
            nv.nvmlInit()
            self.nv = nv
            self.h = nv.nvmlDeviceGetHandleByIndex(torch.cuda.current_device())
        except Exception as e:  # noqa: BLE001 - no bindings: NVML's C library through ctypes
            print(f"no pynvml ({e!r}): NVML through ctypes", flush=True)
            self.nv = None
            self.lib = None
            try:
                self.lib = CNvml(torch.cuda.current_device())
            except Exception as e2:  # noqa: BLE001 - no NVML at all: nvidia-smi, ~30 ms a sample
                print(f"no libnvidia-ml ({e2!r}): sampling through nvidia-smi", flush=True)
        self.period = period_s
        self.samples = []  # (host time s, sm MHz, power W, reasons bitmask)
        self.stop = False
        self.t = threading.Thread(target=self.run, daemon=True)

    def read(self):
        if self.nv is None and self.lib is not None:
            return self.lib.read()
        if self.nv is None:
            import subprocess
            q = subprocess.run(["nvidia-smi", "--query-gpu=clocks.sm,power.draw",
                                "--format=csv,noheader,nounits"], capture_output=True, text=True)
            clk, watts = [float(x) for x in q.stdout.strip().split(",")[:2]]
            return clk, watts, 0
        nv, h = self.nv, self.h
        clk = nv.nvmlDeviceGetClockInfo(h, nv.NVML_CLOCK_SM)
        try:
            pw = nv.nvmlDeviceGetFieldValues(h, [nv.NVML_FI_DEV_POWER_INSTANT])[0]
            watts = (pw.value.uiVal if pw.nvmlReturn == 0 else nv.nvmlDeviceGetPowerUsage(h)) / 1000
        except Exception:  # noqa: BLE001 - older bindings: the averaged reading
            watts = nv.nvmlDeviceGetPowerUsage(h) / 1000
        try:
            why = nv.nvmlDeviceGetCurrentClocksEventReasons(h)
        except Exception:  # noqa: BLE001
            why = nv.nvmlDeviceGetCurrentClocksThrottleReasons(h)
        return clk, watts, int(why)

    def run(self):
        while not self.stop:
            self.samples.append((time.time(), *self.read()))
            time.sleep(self.period)

    def window(self, t0, t1):
        return [s for s in self.samples if t0 <= s[0] <= t1]


def flush_time_us():
    cache = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
          for _ in range(30)]
    for a, b in ev:
        a.record()
        cache.zero_()
        b.record()
    torch.cuda.synchronize()
    ts = sorted(a.elapsed_time(b) * 1e3 for a, b in ev[5:])
    return ts[len(ts) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--measured", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                       "assets", "measured", "triton_h100.json"))
    ap.add_argument("--split", default="fit")
    ap.add_argument("--dot", default="wgmma")
    ap.add_argument("--deadline", type=float, default=400)
    ap.add_argument("--precompile", type=int, default=0)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    recs = json.load(open(a.measured))["records"]
    cs = []
    for r in recs:
        if not r.get("ok") or r["split"] != a.split:
            continue
        if a.dot and r["compiler"]["summary"]["dot"] != a.dot:
            continue
        c = dict(r["problem"])
        c["id"] = r["id"]
        c["sweep_median_ms"] = r["median_ms"]
        cs.append(c)
    print(f"{len(cs)} configurations ({a.split}, dot {a.dot})", flush=True)
    if a.precompile:
        M.precompile(cs, a.precompile)
    s = Sampler()
    h = M.header()
    idle = [s.read() for _ in range(5)]
    h.update(flush_us=flush_time_us(), idle_samples=idle, sampler_period_s=s.period,
             measured_file=os.path.basename(a.measured))
    json.dump(h, open(os.path.join(a.out, "header.json"), "w"), indent=1)
    print("header", json.dumps(h)[:600], flush=True)
    s.t.start()
    f = open(os.path.join(a.out, "clocks.jsonl"), "w")
    t_start = time.time()
    cs.sort(key=lambda c: (M.input_key(c), c["id"]))
    inp, inp_key = None, None
    for i, c in enumerate(cs):
        if time.time() - t_start > a.deadline:
            print(f"deadline: stopped after {i} of {len(cs)}", flush=True)
            break
        rec = {"id": c["id"], "sweep_median_ms": c["sweep_median_ms"]}
        try:
            if M.input_key(c) != inp_key:
                inp = None
                torch.cuda.empty_cache()
                inp, inp_key = M.make_inputs(c), M.input_key(c)
            fn, args, kw, grid, out = M.build(c, inp)
            fn.warmup(*args, grid=grid, **kw)
            torch.cuda.synchronize()
            t0 = time.time()
            ts = triton.testing.do_bench(lambda: fn[grid](*args, **kw), warmup=25, rep=100,
                                         return_mode="all")
            t1 = time.time()
            ts = sorted(ts)
            # The samples of the timed repetitions: the last rep_ms of the window.
            w = s.window(max(t0, t1 - 0.1), t1)
            clk = sorted(x[1] for x in w)
            pw = sorted(x[2] for x in w)
            reasons = 0
            for x in w:
                reasons |= x[3]
            rec.update(median_ms=ts[len(ts) // 2], runs=len(ts), samples=len(w),
                       sm_mhz_median=clk[len(clk) // 2] if clk else None,
                       sm_mhz_min=clk[0] if clk else None, sm_mhz_max=clk[-1] if clk else None,
                       power_w_median=pw[len(pw) // 2] if pw else None,
                       power_w_max=pw[-1] if pw else None, reasons=reasons, ok=True)
        except Exception as e:  # noqa: BLE001
            rec.update(ok=False, error=repr(e)[:300])
            torch.cuda.synchronize()
        f.write(json.dumps(rec) + "\n")
        f.flush()
        print(f'{i:4d} {rec.get("median_ms", -1):9.4f} ms (sweep {c["sweep_median_ms"]:9.4f}) '
              f'{rec.get("sm_mhz_median")} MHz [{rec.get("sm_mhz_min")}-{rec.get("sm_mhz_max")}] '
              f'{rec.get("power_w_median")} W n{rec.get("samples")} r{rec.get("reasons")} '
              f'{c["id"]} {rec.get("error", "")[:100]}', flush=True)
    s.stop = True


if __name__ == "__main__":
    main()
