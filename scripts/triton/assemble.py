"""Assemble one GPU's device outputs into assets/measured/triton_<gpu>.json.

python3 assemble.py --run DIR [--rerun DIR2] --out assets/measured/triton_h100.json
DIR holds what device_run.sh wrote under $OUT (header.json, records.jsonl, ncu.json); DIR2, a
second run of the same sweep, adds median_ms_rerun to each record (run-to-run spread).
The format is described in scripts/triton/README.md.
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncu_subset  # noqa: E402
import split  # noqa: E402
import sweep  # noqa: E402


def _widths(d):
    return sorted(int(k) for k in d if k not in ("None",))


def summary(comp):
    """The compiler's choices in a few fields (the details stay beside them)."""
    p, t = comp["ptx"], comp["ttgir"]
    cp, ld = _widths(p["cp_async_bytes"]), _widths(p["global_load_bytes"])
    if p["tma_copies"]:
        path = "tma"
    elif cp and ld:
        path = "cp.async+ld.global"
    elif cp:
        path = "cp.async"
    else:
        path = "ld.global"
    swz = None
    for v in t["layouts"].values():
        m = re.search(r"nvmma_shared<\{swizzlingByteWidth = (\d+), transposed = (\w+)", v)
        if m:
            swz = swz or []
            swz.append(f"nvmma {m.group(1)}B{' transposed' if m.group(2) == 'true' else ''}")
        m = re.search(r"swizzled_shared<\{vec = (\d+), perPhase = (\d+), maxPhase = (\d+)", v)
        if m:
            swz = swz or []
            swz.append(f"vec {m.group(1)} perPhase {m.group(2)} maxPhase {m.group(3)}")
    mma = None
    for v in t["layouts"].values():
        m = re.search(r"nvidia_mma<\{versionMajor = (\d+).*?instrShape = \[([\d, ]+)\]", v)
        if m:
            mma = f"v{m.group(1)} [{m.group(2)}]"
    return {
        "load_path": path, "load_bytes": sorted(set(cp + ld)),
        "store_bytes": _widths(p["global_store_bytes"]),
        "dot": p["dot_instruction"], "dot_shapes": sorted(set(list(p["wgmma"]) + list(p["mma_sync"]))),
        "mma_layout": mma, "shared_swizzle": sorted(set(swz)) if swz else [],
        "pipeline_buffers": t["pipeline_buffers"], "n_regs": comp.get("n_regs"),
        "n_spills": comp.get("n_spills"), "shared_bytes": comp.get("shared"),
    }


def load(d):
    recs = {}
    for line in open(os.path.join(d, "records.jsonl")):
        r = json.loads(line)
        recs[r["id"]] = r
    ncu = {}
    if os.path.exists(os.path.join(d, "ncu.json")):
        ncu = json.load(open(os.path.join(d, "ncu.json")))
    return json.load(open(os.path.join(d, "header.json"))), recs, ncu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", required=True)
    ap.add_argument("--rerun", default="")
    ap.add_argument("--out", required=True)
    ap.add_argument("--note", default="")
    ap.add_argument("--supplement", type=int, nargs="?", const=2, default=0,
                    help="the run measured sweep.supplement(N) (bare: 2): every configuration is fit")
    a = ap.parse_args()
    head, recs, ncu = load(a.run)
    cs = sweep.supplement(a.supplement)
    sp = {c["id"]: "fit" for c in cs} if a.supplement else split.assign(cs)
    re_recs = load(a.rerun)[1] if a.rerun else {}
    out = []
    for c in cs:
        r = recs.get(c["id"])
        if r is None:
            continue
        rec = {"id": c["id"], "split": sp[c["id"]], "problem": r["problem"], "ok": r["ok"]}
        if not r["ok"]:
            rec["error"] = r.get("error", "")
            out.append(rec)
            continue
        for k in ("correct", "rel_error", "median_ms", "min_ms", "max_ms", "runs", "programs"):
            rec[k] = r.get(k)
        rr = re_recs.get(c["id"])
        if rr and rr.get("ok"):
            rec["median_ms_rerun"] = rr["median_ms"]
        comp = r["compiler"]
        for key in ("mma_layout", "shared_layouts", "blocked_layouts"):
            comp["ttgir"].pop(key, None)
        rec["compiler"] = {"summary": summary(comp), **comp}
        if c["id"] in ncu.get("records", {}):
            m = dict(ncu["records"][c["id"]])
            m.pop("kernel_name", None)
            rec["ncu"] = m
        out.append(rec)
    head = dict(head)
    head["gpu_file"] = os.path.basename(a.out)
    head["ncu"] = {"command": "ncu --csv --page raw --cache-control all --clock-control none "
                              "-k regex:<the kernels' names> (scripts/triton/ncu_subset.py)",
                   "metrics": ncu_subset.METRICS + (ncu_subset.METRICS_V2 if a.supplement == 2 else []),
                   "units": ncu.get("units", {}),
                   "profiled": ncu.get("profiled", 0)}
    head["split_rule"] = (f"docs/TRITON_SPLIT.md, version {a.supplement}: the supplement, every "
                          "configuration fit"
                          if a.supplement else
                          "docs/TRITON_SPLIT.md, version 1 (scripts/triton/split.py)")
    head["rerun"] = a.note
    head["counts"] = {"configurations": len(out), "measured": sum(1 for r in out if r["ok"]),
                      "correct": sum(1 for r in out if r.get("correct")),
                      "with_ncu": sum(1 for r in out if "ncu" in r),
                      "test": sum(1 for r in out if r["split"] == "test")}
    json.dump({"format": "tilesim-triton-measurements/1", "header": head, "records": out},
              open(a.out, "w"), indent=None, separators=(",", ":"))
    print(a.out, os.path.getsize(a.out), "bytes", head["counts"])


if __name__ == "__main__":
    main()
