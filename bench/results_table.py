#!/usr/bin/env python3
"""Turns the JSON lines of eltwise-bench, numpy_peer.py and onnxruntime_peer.mjs into one
markdown table: per row, GB/s / Gelem/s of every implementation, the copy ceiling, and the ratios
optimized/ceiling and optimized/best peer (peers: Eigen, oneDNN, numpy, ORT; a peer computing a
different function, such as oneDNN's integer division, is shown with a dagger and not counted).
Every optimized line (eltwise-bench --isa: "optimized" for the active ISA, "optimized.<isa>" for
the others) gets a column headed with its ISA and a ratio to the ceiling; the best-peer ratio and
the alloc share use "optimized".

usage: results_table.py FILE.jsonl...   (a missing or empty file shows its peer as n/a)
"""
import json
import os
import sys

COLUMNS = [("optimized", "optimized"), ("reference", "reference"), ("eigen", "Eigen"),
           ("onednn", "oneDNN"), ("numpy", "numpy"), ("onnxruntime", "ORT")]
PEERS = ["eigen", "onednn", "numpy", "onnxruntime"]


def load(paths):
    results, metas, order = {}, [], []
    for path in paths:
        if not os.path.exists(path):
            continue
        with open(path) as f:
            for line in f:
                line = line.strip()
                if not line.startswith("{"):
                    continue
                j = json.loads(line)
                if "meta" in j:
                    metas.append(j["meta"])
                    continue
                if j["row"] not in order:
                    order.append(j["row"])
                results[(j["row"], j["impl"])] = j
    return results, metas, order


def num(x):
    """Three significant digits, no exponent for the usual range."""
    return f"{x:.3g}" if 0.001 <= x < 1000 else f"{x:.2e}"


def cell(r):
    if r is None:
        return "–"
    if r.get("status") != "ok":
        return "n/a"
    text = f"{num(r['gb_per_s'])} / {num(r['gelem_per_s'])}"
    if r.get("same_semantics") is False:
        text += " †"
    if r.get("mismatches") or r.get("spot_check_mismatches"):
        text += " ≠"
    return text


def optimized_columns(results):
    """(impl, header) per optimized line present, "optimized" first (always, as it may be n/a)."""
    impls = ["optimized"] + [i for _, i in results if i.startswith("optimized.")]
    isas = {impl: r["isa"] for (_, impl), r in results.items() if "isa" in r}
    return [(impl, f"{impl} ({isas[impl]})" if impl in isas else impl)
            for impl in dict.fromkeys(impls)]


def main(paths):
    results, metas, order = load(paths)
    opt_columns = optimized_columns(results)
    columns = opt_columns + COLUMNS[1:]
    head = ["row", "copy GB/s"] + [f"{name}" for _, name in columns] + [
        impl.replace("optimized", "opt") + "/ceiling" for impl, _ in opt_columns] + [
        "opt/best peer", "best peer", "alloc share"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|")
    reasons = {}
    for row in order:
        get = lambda impl: results.get((row, impl))
        copy, opt = get("copy"), get("optimized")
        cells = [row, num(copy["gb_per_s"]) if copy and copy.get("status") == "ok" else "–"]
        for impl, name in columns:
            r = get(impl)
            cells.append(cell(r))
            if r is not None and r.get("status") != "ok":
                reasons.setdefault(name, {}).setdefault(r.get("reason", "?"), []).append(row)
        for impl, _ in opt_columns:
            r = get(impl)
            ran = r is not None and r.get("status") == "ok" and copy
            cells.append(num(r["gb_per_s"] / copy["gb_per_s"]) if ran else "–")
        ok = opt is not None and opt.get("status") == "ok"
        peers = [(get(p)["gb_per_s"], dict(COLUMNS)[p]) for p in PEERS
                 if get(p) and get(p).get("status") == "ok" and get(p).get("same_semantics", True)]
        best = max(peers) if peers else None
        cells.append(num(opt["gb_per_s"] / best[0]) if ok and best else "–")
        cells.append(best[1] if best else "–")
        alloc = get("output_alloc")
        cells.append(f"{alloc['median_s'] / opt['median_s']:.0%}" if ok and alloc else "–")
        print("| " + " | ".join(cells) + " |")

    print()
    print("Cells: GB/s / Gelem/s from the median time; bytes = |A| + |B| + |C| (inputs as given, "
          "output once); copy = parallel memcpy moving the same byte count, in the same run. "
          "`†` computes a different function (not a peer); `≠` output differs from the "
          "reference (C++ peers: all elements; ORT: a sample); `–` not run.")
    print("`optimized` times `optimized::run_into` writing into a preallocated output that is "
          "reused across repetitions, as the Eigen and oneDNN peers do; `reference` times "
          "`reference::run`, allocation included. `alloc share`: time of `Tensor::uninitialized` for "
          "the output alone over the optimized time, i.e. what `optimized::run` (which allocates "
          "its output, without a zero fill) adds.")
    if len(opt_columns) > 1:
        print("`optimized.<isa>`: the same, with the kernel set forced (eltwise-bench `--isa`); "
              "each optimized header names the ISA it ran. `opt/best peer` and `alloc share` use "
              "`optimized`, the active ISA (meta `isa`).")
    ref = next((r for (_, impl), r in results.items() if impl == "reference" and "note" in r), None)
    if ref:
        print(f"- reference: {ref['note']}")
    for m in metas:
        print("- " + ", ".join(f"{k}={v}" for k, v in sorted(m.items()) if v not in ("", None)))
    for name, by_reason in reasons.items():
        for reason, rows in by_reason.items():
            print(f"- {name} n/a: {reason} ({', '.join(rows)})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
