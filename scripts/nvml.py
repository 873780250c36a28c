"""NVML's SM clock, power and clock-event reasons through its C library (ctypes, no bindings).

Used by scripts/triton/clock_probe.py (the clock while do_bench times Triton's kernels) and, run
as a program, around any command: `python3 scripts/nvml.py --out F.json -- CMD ARGS...` samples
every ~2 ms while CMD runs and stamps each line CMD prints, so a tilesim-bench row's window (from
the line before it to its own) can be matched to the clock and power the GPU held meanwhile.
"""
import argparse
import json
import subprocess
import sys
import threading
import time


class CNvml:
    """The three NVML calls the sampler needs, straight from libnvidia-ml.so.1 (no bindings)."""

    def __init__(self, index):
        import ctypes as C
        self.C = C
        self.lib = C.CDLL("libnvidia-ml.so.1")
        if self.lib.nvmlInit_v2() != 0:
            raise RuntimeError("nvmlInit_v2 failed")
        self.h = C.c_void_p()
        if self.lib.nvmlDeviceGetHandleByIndex_v2(index, C.byref(self.h)) != 0:
            raise RuntimeError("nvmlDeviceGetHandleByIndex_v2 failed")
        # Clock-event reasons: the newer name first (NVML 12.x), the older one on older drivers.
        self.reasons_fn = getattr(self.lib, "nvmlDeviceGetCurrentClocksEventReasons", None) or \
            self.lib.nvmlDeviceGetCurrentClocksThrottleReasons

    def read(self):
        C = self.C
        clk, mw, why = C.c_uint(0), C.c_uint(0), C.c_ulonglong(0)
        self.lib.nvmlDeviceGetClockInfo(self.h, 1, C.byref(clk))  # NVML_CLOCK_SM = 1, MHz
        self.lib.nvmlDeviceGetPowerUsage(self.h, C.byref(mw))  # milliwatts
        self.reasons_fn(self.h, C.byref(why))
        return float(clk.value), mw.value / 1000, int(why.value)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--period", type=float, default=0.002)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    nv = CNvml(0)
    samples, lines, stop = [], [], []

    def sample():
        while not stop:
            samples.append((time.time(), *nv.read()))
            time.sleep(a.period)

    t = threading.Thread(target=sample, daemon=True)
    t.start()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in p.stdout:
        lines.append((time.time(), line.rstrip("\n")))
        sys.stdout.write(line)
        sys.stdout.flush()
    rc = p.wait()
    stop.append(True)
    t.join()
    json.dump({"cmd": cmd, "rc": rc, "samples": samples, "lines": lines}, open(a.out, "w"))
    sys.exit(rc)


if __name__ == "__main__":
    main()
