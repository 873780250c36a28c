"""The simulator as it is, against the Triton measurements: predictions, then a report.

  python3 compare.py predict --data assets/measured/triton_h100.json --machine h100 \
      --cli build/cli/tilesim-cli -j 16 --out preds_h100.json
  python3 compare.py report --gpu h100=assets/measured/triton_h100.json,preds_h100.json \
      --gpu h200=... --out docs/TRITON_BASELINE.md

`predict` runs `tilesim-cli run --json` once per measured configuration with the flags that
describe it (flags_of below); `report` writes predicted vs measured time and DRAM bytes, the
error per configuration, MAPE per class, fit and test apart (split rule: docs/TRITON_SPLIT.md).
"""
import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

# What the CLI's flags cannot say about a Triton configuration (the report lists these).
# What the model, since issue 25, reads from the compiler's choices (sim/compiler): the report
# of the current model lists these instead of NOT_EXPRESSED's first item.
MODELLED = [
    "the compiler's choices, from sim/compiler's rules (checked against every configuration's "
    "TTGIR/PTX facts: tests/scenario/triton_choices_test.cpp): load width from divisibility by "
    "16, cp.async vs ld.global and which operand is pipelined, lanes across rows for a wrapped B, "
    "the K-major tf32 B and its bank conflicts, shared buffers, a register estimate",
    "do_bench's launch overhead (kTritonLaunchOverheadS) and the tensor clock's fall under "
    "sustained load (Machine::tensor_sustained_fraction)",
]

NOT_EXPRESSED = [
    "the compiler's choices: the load width Triton falls back to when a size or stride is not "
    "a multiple of 16 (2-byte ld.global for fp16/bf16, 4-byte cp.async for fp32), cp.async vs "
    "plain ld.global (num_stages 1, or no pipelining at odd sizes), the 4-byte loads of a "
    "row-major B in tf32, the number of shared buffers the pipeliner allocates, registers and "
    "spills: the simulator assumes full-width, pipelined loads",
    "the output's dtype: seeds 000 and 003 store fp32 C whatever the inputs; the tutorial and "
    "seed 001 store C in the input dtype (the CLI's C has the input dtype)",
    "seed 001 masks only K and wraps M/N with % (expressed as --boundary wrap, like the "
    "tutorial); seeds 000 and 003 mask every edge (--boundary mask)",
    "2-D grids (seeds 000, 003, copy, transpose): program_id(0) walks M fastest, expressed as "
    "--order column-major",
    "do_bench's host launch overhead (a few microseconds) on the smallest problems",
]

ORDER = {"row-major": "row-major", "grouped": "grouped", "column-major": "column-major"}


def flags_of(p, machine):
    f = ["--machine", machine, "--dtype", p["dtype"], "--m", str(p["m"]), "--n", str(p["n"])]
    if p["kernel"] in ("copy", "transpose"):
        f += ["--kernel", p["kernel"], "--block-m", str(p["block_m"]), "--block-n",
              str(p["block_n"]), "--num-warps", str(p["num_warps"])]
        return f
    f += ["--kernel", "matmul", "--k", str(p["k"]), "--block-m", str(p["block_m"]),
          "--block-n", str(p["block_n"]), "--block-k", str(p["block_k"]),
          "--group-m", str(p["group_size_m"]), "--order", ORDER[p["order"]],
          "--boundary", p["boundary"], "--b-layout", p["b_layout"],
          "--stages", str(p["num_stages"]), "--num-warps", str(p["num_warps"])]
    if p["dtype"] == "fp32":
        f += ["--input-precision", p["input_precision"]]
    return f


def predict(a):
    d = json.load(open(a.data))
    todo = [r for r in d["records"] if r["ok"] and r.get("correct")]
    done = {}
    if os.path.exists(a.out):
        done = json.load(open(a.out)).get("predictions", {})
    todo = [r for r in todo if r["id"] not in done]
    if a.max_volume > 0:  # a quick look: only problems up to M*N*K (copy/transpose: M*N) of this
        todo = [r for r in todo
                if r["problem"]["m"] * r["problem"]["n"] * max(r["problem"]["k"], 1) <= a.max_volume]
    t0 = time.time()

    def one(r):
        fl = flags_of(r["problem"], a.machine)
        cmd = [a.cli, "run", "--json", "--max-seconds", "600", "--max-memory-gib",
               str(a.max_memory_gib)] + fl
        t = time.time()
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            return r["id"], {"flags": " ".join(fl), "error": (p.stderr or p.stdout)[-300:]}
        j = json.loads(p.stdout)
        keep = {k: j.get(k) for k in ("predicted_time_s", "dram_read_bytes", "dram_write_bytes",
                                      "dram_write_bytes_in_kernel", "l2_hit_rate", "math_path",
                                      "smem_layout", "programs_per_sm", "bound", "occupancy")}
        keep["flags"] = " ".join(fl)
        keep["cli_s"] = round(time.time() - t, 2)
        return r["id"], keep

    # Largest first so the pool ends together.
    todo.sort(key=lambda r: -r["problem"]["m"] * r["problem"]["n"] * max(r["problem"]["k"], 1))
    with ThreadPoolExecutor(a.jobs) as ex:
        for i, (cid, v) in enumerate(ex.map(one, todo)):
            done[cid] = v
            if i % 25 == 0 or i == len(todo) - 1:
                json.dump({"machine": a.machine, "cli": a.cli, "predictions": done},
                          open(a.out, "w"))
                print(f"{i + 1}/{len(todo)} {time.time() - t0:.0f}s", flush=True)
    json.dump({"machine": a.machine, "cli": a.cli, "predictions": done}, open(a.out, "w"))


# ---------------------------------------------------------------- report


def kernel_group(p):
    return p["kernel"]


def prec(p):
    return p["dtype"] + ("-" + p["input_precision"] if p["input_precision"] else "")


def rows_of(data, preds):
    rows = []
    for r in data["records"]:
        if not r["ok"] or not r.get("correct"):
            continue
        pr = preds.get(r["id"])
        if not pr or "error" in pr or not pr.get("predicted_time_s"):
            continue
        p = r["problem"]
        row = {"id": r["id"], "split": r["split"], "p": p, "meas_ms": r["median_ms"],
               "pred_ms": pr["predicted_time_s"] * 1e3, "summary": r["compiler"]["summary"],
               "pred": pr}
        row["t_err"] = row["pred_ms"] / row["meas_ms"] - 1
        if "ncu" in r:
            mb = r["ncu"]["dram__bytes_read.sum"] + r["ncu"]["dram__bytes_write.sum"]
            # Writes within the kernel (what ncu counts): dirty lines still in L2 at its end
            # are written after it. 0 is a prediction (everything stayed in L2), not "absent".
            w = pr.get("dram_write_bytes_in_kernel")
            pb = pr["dram_read_bytes"] + (pr["dram_write_bytes"] if w is None else w)
            row.update(meas_dram=mb, pred_dram=pb, d_err=(pb / mb - 1) if mb > 0 else None,
                       meas_l2=r["ncu"]["lts__t_sector_hit_rate.pct"],
                       pred_l2=100 * (pr.get("l2_hit_rate") or 0))
        rows.append(row)
    return rows


def stats(errs):
    errs = [e for e in errs if e is not None]
    if not errs:
        return None
    ab = sorted(abs(e) for e in errs)
    return {"n": len(errs), "mape": 100 * sum(ab) / len(ab), "bias": 100 * sum(errs) / len(errs),
            "p90": 100 * ab[min(len(ab) - 1, int(0.9 * len(ab)))], "max": 100 * ab[-1],
            "over25": sum(a > 0.25 for a in ab)}


def fmt(s):
    if not s:
        return "| – | – | – | – | – |"
    return (f'| {s["n"]} | {s["mape"]:.1f} | {s["bias"]:+.1f} | {s["max"]:.0f} | '
            f'{s["over25"]} |')


def class_table(rows, keyf, title, errkey):
    out = [f"\n**{title}**\n", "| class | test n | test MAPE % | test bias % | test max % | "
           "test >25 % | fit n | fit MAPE % | fit bias % | fit max % | fit >25 % |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    keys = sorted({keyf(r) for r in rows})
    for k in keys:
        te = [r[errkey] for r in rows if keyf(r) == k and r["split"] == "test" and errkey in r]
        fi = [r[errkey] for r in rows if keyf(r) == k and r["split"] == "fit" and errkey in r]
        st, sf = stats(te), stats(fi)
        if not st and not sf:
            continue
        out.append(f"| {k} |" + fmt(st)[1:-1] + fmt(sf)[:-1] + "|")
    return out


def pair_ratios(rows, which):
    """G = 1 vs G = 8, or B^T vs B: predicted and measured time ratios of matching pairs."""
    idx = {}
    for r in rows:
        p = r["p"]
        if p["kernel"] != "tutorial":
            continue
        if which == "G":
            key = (p["m"], p["n"], p["k"], prec(p), p["block_m"], p["block_n"], p["block_k"],
                   p["num_warps"], p["num_stages"], p["b_layout"])
            tag = p["group_size_m"]
        else:
            key = (p["m"], p["n"], p["k"], prec(p), p["block_m"], p["block_n"], p["block_k"],
                   p["num_warps"], p["num_stages"], p["group_size_m"])
            tag = p["b_layout"]
        idx.setdefault(key, {})[tag] = r
    out = []
    for key, d in sorted(idx.items()):
        a, b = (d.get(1), d.get(8)) if which == "G" else (d.get("transposed"), d.get("row-major"))
        if a and b:
            mr = a["meas_ms"] / b["meas_ms"]
            pr = a["pred_ms"] / b["pred_ms"]
            out.append({"key": key, "split": a["split"], "meas": mr, "pred": pr,
                        "err": pr / mr - 1})
    return out


DRIFT_GS = [("row-major", 1), ("grouped", 2), ("grouped", 3), ("grouped", 4), ("grouped", 6),
            ("grouped", 8), ("grouped", 12), ("grouped", 16)]


def drift_section(rows):
    """Issue 25 item 4: row-major drift and GROUP_SIZE_M between and beyond the calibrated sizes.

    Every tutorial problem measured in all eight launch orders (row-major and G = 2 ... 16): per
    order, the DRAM bytes' error (ncu) and the error of the time relative to G = 8 (so that the
    drift is judged apart from the problem's absolute time)."""
    groups = {}
    for r in rows:
        p = r["p"]
        if p["kernel"] != "tutorial":
            continue
        key = (p["m"], p["n"], p["k"], prec(p), p["block_m"], p["block_n"], p["block_k"],
               p["num_warps"], p["num_stages"], p["b_layout"])
        groups.setdefault(key, {})[(p["order"], p["group_size_m"])] = r
    full = {k: v for k, v in groups.items() if all(g in v for g in DRIFT_GS)}
    if not full:
        return []
    head = " | ".join("row-major" if o == "row-major" else f"G{g}" for o, g in DRIFT_GS)
    L = ["\n### Row-major drift and GROUP_SIZE_M across sizes (issue 25, item 4)", "",
         f"Every tutorial problem measured in all eight orders ({len(full)} problems, sizes "
         f"{min(k[0] for k in full)}–{max(k[0] for k in full)}, square and not, both B layouts). "
         "Upper cell: DRAM bytes error % (ncu; – where not collected). Lower cell: error % of the "
         "time ratio to G = 8 (predicted ratio / measured ratio − 1); the measured ratio is in "
         "brackets. Split per row: the split of most of its configurations.", "",
         f"| problem | split | {head} | max DRAM err | max ratio err |",
         "|---|---|" + "---|" * len(DRIFT_GS) + "---|---|"]
    worst_d, worst_r = [], []
    for key in sorted(full, key=lambda k: (k[3], k[9], k[0] * k[1] * k[2])):
        v = full[key]
        base = v[("grouped", 8)]
        cells, de, re_ = [], [], []
        for g in DRIFT_GS:
            r = v[g]
            d = r.get("d_err")
            mr = r["meas_ms"] / base["meas_ms"]
            pr = r["pred_ms"] / base["pred_ms"]
            e = pr / mr - 1
            if g != ("grouped", 8):
                re_.append(e)
            if d is not None:
                de.append(d)
            cells.append((f"{100 * d:+.0f}" if d is not None else "–") +
                         f"<br>{100 * e:+.0f} ({mr:.2f})")
        splits = [v[g]["split"] for g in DRIFT_GS]
        split = max(set(splits), key=splits.count)
        md = max((abs(x) for x in de), default=None)
        mx = max(abs(x) for x in re_)
        worst_d.append(md or 0)
        worst_r.append(mx)
        L.append(f"| {key[0]}×{key[1]}×{key[2]} {key[3]} {key[4]}×{key[5]}×{key[6]} "
                 f"w{key[7]}s{key[8]} B {key[9]} | {split} | " + " | ".join(cells) +
                 f" | {'–' if md is None else f'{100 * md:.0f} %'} | {100 * mx:.0f} % |")
    within = sum(x <= 0.10 for x in worst_r)
    L += ["", f"Time relative to G = 8 within 10 % in every order: {within} of {len(full)} "
          f"problems; DRAM bytes within 15 % in every order: "
          f"{sum(x <= 0.15 for x in worst_d)} of {len(full)}."]
    return L


def head_commit():
    """The checkout's commit, short (what a report or the T4's figures were made at)."""
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True).stdout.strip()


def report(a):
    gpus = []
    for g in a.gpu:
        name, rest = g.split("=", 1)
        dpath, ppath = rest.split(",")
        gpus.append((name, dpath, json.load(open(dpath)), json.load(open(ppath))))
    commit = head_commit()
    when = datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')
    if a.current:
        title = "# Triton's truth: the simulator against Triton's compiled kernels"
        origin = (f"Generated by `scripts/triton/compare.py report --current` on {when} from "
                  f"predictions of the CLI at commit {a.current} (`compare.py predict`, kept in "
                  "docs/triton_predictions/). ")
    else:
        title = "# Triton baseline: the simulator as it was before issue 25's modelling"
        origin = (f"Generated by `scripts/triton/compare.py report` on {when} at commit {commit} "
                  "(this branch leaves sim/ and cli/ as they were at its branch point d8d50e8; "
                  "the CLI built Release from them). ")
    L = [title, "",
         origin +
         "Predicted: `tilesim-cli run --json` with each configuration's flags (the flags are in "
         "each row of the per-configuration table). Measured: `assets/measured/triton_<gpu>.json` "
         "(`triton.testing.do_bench` median, L2 flushed; DRAM bytes from Nsight Compute "
         "`dram__bytes_read.sum + dram__bytes_write.sum`, caches flushed, for the ncu subset). "
         "Error = predicted / measured − 1 (negative: the model is too fast / too few bytes). "
         "MAPE = mean |error|. Fit and test by docs/TRITON_SPLIT.md (version 1); **the test "
         "set's columns are the headline**. Configurations that did not compile (6, out of "
         "shared memory) are in neither.", "",
         "What the CLI's flags cannot express (so the model cannot see it):", ""]
    L += [f"- {x}" for x in (NOT_EXPRESSED[1:-1] if a.current else NOT_EXPRESSED)]
    if a.current:
        L += ["", "What the model reads from the problem since issue 25:", ""]
        L += [f"- {x}" for x in MODELLED]
    summary_at = len(L)
    summary_lines = ["", "## Headline (test set)", "",
                     "| GPU | time MAPE % | time bias % | beyond ±25 % | DRAM bytes MAPE % | "
                     "G1/G8 pairs within 10 % | B^T/B pairs within 10 % |",
                     "|---|---|---|---|---|---|---|"]
    for name, dpath, data, preds in gpus:
        h = data["header"]
        pr = preds["predictions"]
        rows = rows_of(data, pr)
        failed = [k for k, v in pr.items() if "error" in v]
        L += ["", f"## {h['gpu']} (preset `{preds['machine']}`)", "",
              f"Measured {h['date_utc']}, driver {h['driver']}, CUDA {h['cuda']}, Triton "
              f"{h['triton']}, PyTorch {h['torch']}, harness {h['harness_commit']}. "
              f"{len(rows)} configurations compared ({sum(r['split'] == 'test' for r in rows)} "
              f"test), {sum('d_err' in r for r in rows)} with DRAM bytes; "
              f"{len(failed)} the CLI refused.", ""]
        spread = sorted(abs(r["median_ms_rerun"] / r["median_ms"] - 1) for r in data["records"]
                        if r.get("median_ms_rerun") and r.get("median_ms"))
        if spread:
            L += [f"Run-to-run spread of the measurement itself (the sweep run twice: "
                  f"{data['header'].get('rerun', '')}; |rerun / run − 1| over {len(spread)} "
                  f"configurations): median "
                  f"{100 * spread[len(spread) // 2]:.1f} %, 90th percentile "
                  f"{100 * spread[int(0.9 * len(spread))]:.1f} %, max {100 * spread[-1]:.0f} %.", ""]
        else:
            L += ["One run of the sweep on this GPU: no run-to-run spread measured here.", ""]
        te = [r for r in rows if r["split"] == "test"]
        fi = [r for r in rows if r["split"] == "fit"]
        st, sf = stats([r["t_err"] for r in te]), stats([r["t_err"] for r in fi])
        dt = stats([r.get("d_err") for r in te if "d_err" in r])
        df = stats([r.get("d_err") for r in fi if "d_err" in r])
        gp = [x for x in pair_ratios(rows, "G") if x["split"] == "test"]
        bp = [x for x in pair_ratios(rows, "B") if x["split"] == "test"]
        summary_lines.append(
            f"| {h['gpu']} | {st['mape']:.1f} | {st['bias']:+.1f} | {st['over25']} of {st['n']} | "
            f"{dt['mape']:.1f} (n {dt['n']}) | {sum(abs(x['err']) <= 0.1 for x in gp)} of {len(gp)} | "
            f"{sum(abs(x['err']) <= 0.1 for x in bp)} of {len(bp)} |")
        L += ["| | n | MAPE % | bias % | max % | beyond ±25 % |", "|---|---|---|---|---|---|",
              "| **time, test** |" + fmt(st)[1:], "| time, fit |" + fmt(sf)[1:],
              "| **DRAM bytes, test** |" + fmt(dt)[1:], "| DRAM bytes, fit |" + fmt(df)[1:]]
        for which, title in (("G", "G = 1 vs G = 8 time ratio (tutorial)"),
                             ("B", "B^T vs B time ratio (tutorial)")):
            pr_ = pair_ratios(rows, which)
            for side in ("test", "fit"):
                s = [x for x in pr_ if x["split"] == side]
                if s:
                    within = sum(abs(x["err"]) <= 0.10 for x in s)
                    L.append(f"\n{title}, {side}: {within} of {len(s)} pairs within 10 % of "
                             f"measured; error MAPE {stats([x['err'] for x in s])['mape']:.1f} %.")
            L += ["", "<details><summary>pairs</summary>", "",
                  "| m×n×k | prec | blocks w s | other | split | measured ratio | predicted | error % |",
                  "|---|---|---|---|---|---|---|---|"]
            for x in pr_:
                k = x["key"]
                L.append(f"| {k[0]}×{k[1]}×{k[2]} | {k[3]} | {k[4]}×{k[5]}×{k[6]} w{k[7]} s{k[8]} "
                         f"| {k[9]} | {x['split']} | {x['meas']:.3f} | {x['pred']:.3f} | "
                         f"{100 * x['err']:+.0f} |")
            L += ["", "</details>"]
        L += drift_section(rows)
        L.append("\n### Time error by class")
        L += class_table(rows, lambda r: r["p"]["kernel"], "by kernel", "t_err")
        L += class_table(rows, lambda r: prec(r["p"]), "by dtype / precision (all kernels)", "t_err")
        L += class_table(rows, lambda r: r["p"]["shape_class"], "by shape class", "t_err")
        L += class_table(rows, lambda r: r["p"]["b_layout"], "by B layout", "t_err")
        L += class_table(rows, lambda r: f'{r["summary"]["load_path"]} {r["summary"]["load_bytes"]}',
                         "by the compiler's load path and widths (bytes)", "t_err")
        L += class_table(rows, lambda r: f'{r["p"]["kernel"]} {prec(r["p"])} {r["p"]["shape_class"]}',
                         "by kernel × precision × shape class", "t_err")
        L.append("\n### DRAM bytes error by class (ncu subset)")
        dr = [r for r in rows if "d_err" in r]
        L += class_table(dr, lambda r: r["p"]["kernel"], "by kernel", "d_err")
        L += class_table(dr, lambda r: r["p"]["shape_class"], "by shape class", "d_err")
        L += class_table(dr, lambda r: f'{r["p"]["order"]} G{r["p"]["group_size_m"]}',
                         "by launch order and G", "d_err")
        L += class_table(dr, lambda r: prec(r["p"]), "by dtype / precision", "d_err")
        worst = sorted(te, key=lambda r: -abs(r["t_err"]))[:20]
        L += ["\n### The 20 test configurations the model misses most (time)", "",
              "| configuration | measured ms | predicted ms | error % | load path | dot | spills |",
              "|---|---|---|---|---|---|---|"]
        for r in worst:
            s = r["summary"]
            L.append(f"| `{r['id']}` | {r['meas_ms']:.4f} | {r['pred_ms']:.4f} | "
                     f"{100 * r['t_err']:+.0f} | {s['load_path']} {s['load_bytes']} | {s['dot']} | "
                     f"{s['n_spills']} |")
        L += ["", "<details><summary>every configuration</summary>", "",
              "| configuration | split | measured ms | predicted ms | time err % | DRAM MB meas | "
              "DRAM MB pred | DRAM err % | L2 hit % meas / pred |", "|---|---|---|---|---|---|---|---|---|"]
        for r in rows:
            d = (f"{r['meas_dram'] / 1e6:.1f} | {r['pred_dram'] / 1e6:.1f} | "
                 f"{100 * r['d_err']:+.0f} | {r['meas_l2']:.0f} / {r['pred_l2']:.0f}"
                 if "d_err" in r and r["d_err"] is not None else "– | – | – | –")
            L.append(f"| `{r['id']}` | {r['split']} | {r['meas_ms']:.4f} | {r['pred_ms']:.4f} | "
                     f"{100 * r['t_err']:+.0f} | {d} |")
        L += ["", "</details>"]
        if failed:
            L += ["", "Refused by the CLI:", ""] + [f"- `{k}`: {pr[k]['error'][-160:]}"
                                                   for k in failed]
    L[summary_at:summary_at] = summary_lines + (t4_section(a.t4) if a.t4 else [])
    open(a.out, "w").write("\n".join(L) + "\n")
    print("wrote", a.out)
    if a.fidelity:
        fidelity_block(a, gpus)


def fidelity_block(a, gpus):
    """The Triton section of docs/FIDELITY.md, between its markers (fidelity_report.py keeps it):
    per GPU the test and fit sets' time and DRAM errors, the ratio pairs, the kernel classes."""
    begin, end = "<!-- triton:begin -->", "<!-- triton:end -->"
    B = [begin, "## Triton's compiled kernels: predicted vs measured (issue 25)", "",
         "Triton 3.6's own kernels (the seeds' kernels as the seeds write them and the tutorial "
         "matmul; `scripts/triton/`), timed with `triton.testing.do_bench` (median, L2 flushed) "
         "and profiled with Nsight Compute on an H100 and an H200, against `tilesim-cli run` with "
         "each configuration's flags, the compiler's choices read from sim/compiler's rules. The "
         "fit / test split was fixed by rule before any fitting (docs/TRITON_SPLIT.md); **the "
         "test set is the headline**, the fit set beside it. Targets (issue 25): test time MAPE "
         "≤ 10 % with none beyond ±25 %, DRAM bytes MAPE ≤ 15 %, every G = 1 / G = 8 and B^T / B "
         "time ratio within 10 %. Every configuration, its flags and error: "
         "docs/TRITON_REPORT.md; the model before this work: docs/TRITON_BASELINE.md.", "",
         f"Predicted at commit {a.current or '(working tree)'}.", "",
         "| GPU | set | n | time MAPE % | bias % | beyond ±25 % | DRAM MAPE % (n) | G1/G8 within 10 % | B^T/B within 10 % | target met |",
         "|---|---|---|---|---|---|---|---|---|---|"]
    for name, dpath, data, preds in gpus:
        rows = rows_of(data, preds["predictions"])
        for side in ("test", "fit"):
            rs = [r for r in rows if r["split"] == side]
            t = stats([r["t_err"] for r in rs])
            d = stats([r.get("d_err") for r in rs if "d_err" in r])
            gp = [x for x in pair_ratios(rows, "G") if x["split"] == side]
            bp = [x for x in pair_ratios(rows, "B") if x["split"] == side]
            gw = sum(abs(x["err"]) <= 0.1 for x in gp)
            bw = sum(abs(x["err"]) <= 0.1 for x in bp)
            met = (t["mape"] <= 10 and t["over25"] == 0 and d["mape"] <= 15 and gw == len(gp)
                   and bw == len(bp))
            label = f"**{side}**" if side == "test" else side
            B.append(f"| {data['header']['gpu']} | {label} | {t['n']} | {t['mape']:.1f} | "
                     f"{t['bias']:+.1f} | {t['over25']} | {d['mape']:.1f} ({d['n']}) | "
                     f"{gw} of {len(gp)} | {bw} of {len(bp)} | "
                     f"{'yes' if met else 'no'} |")
    for name, dpath, data, preds in gpus:
        rows = [r for r in rows_of(data, preds["predictions"]) if r["split"] == "test"]
        B += ["", f"### {data['header']['gpu']}: test set by kernel and precision", "",
              "| kernel | precision | n | time MAPE % | bias % | beyond ±25 % |", "|---|---|---|---|---|---|"]
        groups = {}
        for r in rows:
            groups.setdefault((r["p"]["kernel"], prec(r["p"])), []).append(r["t_err"])
        for (k, pr_), errs in sorted(groups.items()):
            s = stats(errs)
            B.append(f"| {k} | {pr_} | {s['n']} | {s['mape']:.1f} | {s['bias']:+.1f} | "
                     f"{s['over25']} |")
    if a.t4:
        t = json.load(open(a.t4))
        B += ["", "Seed 003 on the T4 preset (the seed's own Colab figures; target ±35 %, "
              "transposed / plain ratio within 25 % of the seed's 2.0; predicted at commit "
              f"{t['row-major'].get('commit', '?')}):", ""]
        for key in ("row-major", "transposed"):
            x = t[key]
            B.append(f"- {key}: seed {x['seed_ms']:.1f} ms, predicted {x['pred_ms']:.1f} ms "
                     f"({100 * (x['pred_ms'] / x['seed_ms'] - 1):+.0f} %)")
        ratio = t["transposed"]["pred_ms"] / t["row-major"]["pred_ms"]
        seed = t["transposed"]["seed_ms"] / t["row-major"]["seed_ms"]
        B.append(f"- ratio: seed {seed:.2f}, predicted {ratio:.2f} "
                 f"({100 * (ratio / seed - 1):+.0f} %)")
    B.append(end)
    path = a.fidelity
    old = open(path).read()
    block = "\n".join(B)
    if begin in old and end in old:
        new = old[:old.index(begin)] + block + old[old.index(end) + len(end):]
    else:
        tb = "<!-- timing:begin -->"
        new = old.replace(tb, block + "\n\n" + tb, 1) if tb in old else old + "\n" + block + "\n"
    if new != old:
        open(path, "w").write(new)
    print("fidelity block:", path)


# Seed 003 on the T4 (Colab), as the seed reports it: X 8192x6144 @ Y 6144x4096 in fp32, one
# BLOCK_SIZE of 64, median latency of block_matmul and coalesced_block_matmul.
SEED003_T4_MS = {"row-major": 130.7831, "transposed": 261.9420}


def t4(a):
    """Seed 003's pair on the CLI's T4 preset (the T4 has no TF32: FMA, no cp.async so one stage)."""
    out = {}
    # The T4's figures come from the CLI as built now, not from the kept Hopper predictions.
    commit = head_commit()
    for bl, ms in SEED003_T4_MS.items():
        fl = ["--machine", "t4", "--kernel", "matmul", "--m", "8192", "--n", "4096", "--k", "6144",
              "--dtype", "fp32", "--input-precision", "ieee", "--block-m", "64", "--block-n", "64",
              "--block-k", "64", "--group-m", "1", "--order", "column-major", "--boundary", "mask",
              "--b-layout", bl, "--num-warps", "4", "--stages", "1"]
        p = subprocess.run([a.cli, "run", "--json"] + fl, capture_output=True, text=True)
        j = json.loads(p.stdout)
        out[bl] = {"flags": " ".join(fl), "seed_ms": ms, "pred_ms": j["predicted_time_s"] * 1e3,
                   "math_path": j.get("math_path"), "smem_layout": j.get("smem_layout"),
                   "commit": commit}
    json.dump(out, open(a.out, "w"), indent=1)


def t4_section(path):
    d = json.load(open(path))
    L = ["", "## Seed 003 on the T4 preset (the seed's own figures)", "",
         "The seed measured on a Colab T4: fp32 8192×6144 @ 6144×4096, BLOCK_SIZE 64. The CLI: "
         "`--machine t4`, FMA (the T4 has no TF32), one stage (no cp.async before sm_80), at the "
         "T4's clock under load (docs/PARAMETERS.md, `fma_clock_hz`); predicted at commit "
         f"{d['row-major'].get('commit', '?')}. Issue 25 asks for ±35 %.", "",
         "| kernel | seed ms | predicted ms | error % | flags |", "|---|---|---|---|---|"]
    for bl, name in (("row-major", "block_matmul"), ("transposed", "coalesced_block_matmul")):
        r = d[bl]
        L.append(f"| {name} | {r['seed_ms']:.1f} | {r['pred_ms']:.1f} | "
                 f"{100 * (r['pred_ms'] / r['seed_ms'] - 1):+.0f} | `{r['flags']}` |")
    rm, tr = d["row-major"], d["transposed"]
    L.append(f"\nRatio coalesced / block: seed {tr['seed_ms'] / rm['seed_ms']:.2f}, predicted "
             f"{tr['pred_ms'] / rm['pred_ms']:.2f}.")
    return L


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("predict")
    p.add_argument("--data", required=True)
    p.add_argument("--machine", required=True)
    p.add_argument("--cli", default="build/cli/tilesim-cli")
    p.add_argument("-j", "--jobs", type=int, default=2)
    p.add_argument("--max-memory-gib", type=float, default=8)
    p.add_argument("--max-volume", type=float, default=0,
                   help="predict only problems with M*N*K at most this (0: all)")
    p.add_argument("--out", required=True)
    r = sub.add_parser("report")
    r.add_argument("--gpu", action="append", required=True)
    r.add_argument("--t4", default="", help="output of the t4 subcommand")
    r.add_argument("--current", default="",
                   help="the commit the predictions come from: a report of the current model")
    r.add_argument("--fidelity", default="", help="also write the Triton block of this FIDELITY.md")
    r.add_argument("--out", required=True)
    t = sub.add_parser("t4")
    t.add_argument("--cli", default="build/cli/tilesim-cli")
    t.add_argument("--out", required=True)
    a = ap.parse_args()
    {"predict": predict, "report": report, "t4": t4}[a.cmd](a)


if __name__ == "__main__":
    main()
