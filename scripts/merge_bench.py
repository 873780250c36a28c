#!/usr/bin/env python3
"""Merge a later tilesim-bench run's records into a bundled ladder file (assets/measured/).

usage: scripts/merge_bench.py BUNDLE.json NEW.json [NEW.json...] --note TEXT

Every record of the new files is appended with TEXT in its `note` and its run's date and commit in
`run_date` and `run_commit` (the app names them as the record's source),
except a baseline record (cuBLAS, cudaMemcpy) whose variant and problem the bundle already holds:
the bundle's own baselines, and the rows fitted to them (scripts/fit_timing.py), stay as they
were measured. The new rungs keep the same-run baseline figures they were compared with
(`baseline_ms`, `pct_of_baseline`). A record of a rung the bundle already holds is refused: a
merge adds rungs, it does not replace a run.
"""
import argparse
import json
import sys

BASELINES = ("cublas_", "copy_memcpy_")


def key(r):
    return r["variant"], json.dumps(r["problem"], sort_keys=True), r["timed_runs"] > 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bundle")
    ap.add_argument("new", nargs="+")
    ap.add_argument("--note", required=True)
    a = ap.parse_args()
    bundle = json.load(open(a.bundle))
    have = {key(r) for r in bundle["records"]}
    rungs = {r["variant"] for r in bundle["records"]}
    added = skipped = 0
    for path in a.new:
        new = json.load(open(path))
        if new["device"]["name"] != bundle["device"]["name"]:
            sys.exit(f"{path}: device {new['device']['name']!r}, the bundle's is "
                     f"{bundle['device']['name']!r}")
        note = f"{a.note} ({new['date']}, commit {new['commit']})"
        for r in new["records"]:
            base = r["variant"].startswith(BASELINES)
            if base and key(r) in have:
                skipped += 1
                continue
            if not base and r["variant"] in rungs:
                sys.exit(f"{path}: the bundle already holds {r['variant']}")
            r["note"] = note
            r["run_date"], r["run_commit"] = new["date"], new["commit"]
            bundle["records"].append(r)
            have.add(key(r))
            added += 1
    json.dump(bundle, open(a.bundle, "w"), indent=2)
    print(f"{a.bundle}: {added} records added, {skipped} baselines already there")


if __name__ == "__main__":
    main()
