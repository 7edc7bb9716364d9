#!/usr/bin/env python3
"""tilesim/scripts/calibrate/merge.py: joins the Nsight Compute counters and the clocks of calibrate.cu into truth files.

WHAT IT IS. run_calibration.sh runs `calibrate count FILE... NAMES` under `ncu --csv` (one kernel per
pattern, in file order; NAMES lists NAME WIDTH OP FILE per launch) and `calibrate time FILE...` (a TSV
with the looped and unrolled cycles). This script divides every counter by the instructions, joins the two
by (FILE, NAME), and writes one truth TSV per pattern file, each opening with `#` provenance lines:

    merge.py --provenance P --names N --csv C --time T --out DIR --primary data/calibration/h200-calibration.patterns \
             --known data/calibration/h200-smem-known.patterns [--global-names GN --global-csv GC]

WORKED EXAMPLE. For `ld_w4_stride_32w` ncu reports smsp__sass_inst_executed_op_shared_ld.sum = 64,
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum = 2048,
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum = 2048, l1tex__data_bank_conflicts_..._ld.sum = 1984;
time mode printed 32.013 / 32.015 (H200). The truth line is
    ld_w4_stride_32w  4  load  32  32  31  32.013  32.015
(name width op wavefronts hw_wavefronts bank_conflicts cycles_per_warp_access cycles_unrolled).

OUTPUTS in DIR: the primary file's truth as h200-calibration.truth.tsv (named after the pattern file), any
other smem file's as BASENAME.truth.tsv, a global file's as BASENAME.truth.tsv (name width op sectors
requests), known-check.tsv (the --known file re-measured against its truth in data/calibration: the harness
check) and summary.txt (also printed).

INVARIANTS. Nothing is guessed: the kernels in the CSV must be as many as the names and each kernel's
template arguments must agree with its line's width and op; every kernel must have executed exactly 64
instructions of its op (global loads: 64 or 1, as ptxas may hoist them out of the loop) and none of the
other; every pattern of the counts must have a time line. A violation is an ERROR in the summary and makes
the exit status 1 (the files are still written, the bad values as nan). Harness-check deviations from the
known truth (a wavefront count, or looped cycles more than 5 % off) are WARNINGs (exit status 0).
"""
import argparse
import csv
import math
import os
import re
import sys

COUNT_REPS = 64  # calibrate.cu count_reps
CHECK_PERCENT = 5.0  # harness check: looped cycles this far from the known truth are a WARNING (the doctest's tolerance)
SMEM = {
    "inst": "smsp__sass_inst_executed_op_shared_{}.sum",
    "wf": "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{}.sum",
    "hw": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{}.sum",
    "bc": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{}.sum",
}
GLOBAL = {
    "inst": "smsp__sass_inst_executed_op_global_{}.sum",
    "sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_{}.sum",
    "requests": "l1tex__t_requests_pipe_lsu_mem_global_op_{}.sum",
}
KERNEL = re.compile(r"cal_count<\s*(\d+)\s*,\s*(true|false|1|0)\s*,\s*(true|false|1|0)\s*>")

errors, warnings = [], []


def fmt(x):
    """A count as an integer when it is one, else with 4 decimals; nan stays nan."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "nan"
    if abs(x - round(x)) < 1e-9:
        return str(int(round(x)))
    return f"{x:.4f}"


def read_names(path):
    """NAME WIDTH OP FILE per launch, in launch order."""
    rows = []
    if not os.path.exists(path):
        errors.append(f"{path} is missing (count mode did not start)")
        return rows
    with open(path) as f:
        for line in f:
            if line.strip():
                try:
                    name, width, op, src = line.rstrip("\n").split("\t")
                    rows.append((name, int(width), op, src))
                except ValueError:
                    errors.append(f"{path}: malformed line {line.rstrip()!r}")
    return rows


def read_ncu(path):
    """The kernels of an `ncu --csv` file in ID order: (kernel name, {metric: value})."""
    with open(path, newline="") as f:
        rows = list(csv.reader(l for l in f if not l.startswith("==")))
    try:
        hdr = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
    except StopIteration:
        errors.append(f"{path}: no ncu CSV header (a line starting with \"ID\"); did ncu fail?")
        return []
    cols = rows[hdr]
    if not all(c in cols for c in ("ID", "Kernel Name", "Metric Name", "Metric Value")):
        errors.append(f"{path}: the ncu CSV header lacks ID, Kernel Name, Metric Name or Metric Value")
        return []
    at = {c: cols.index(c) for c in ("ID", "Kernel Name", "Metric Name", "Metric Value")}
    kernels = {}
    for r in rows[hdr + 1:]:
        if len(r) < len(cols):
            continue
        try:
            kid = int(r[at["ID"]])
        except ValueError:
            continue
        k = kernels.setdefault(kid, (r[at["Kernel Name"]], {}))
        value = r[at["Metric Value"]].replace(",", "")
        try:
            k[1][r[at["Metric Name"]]] = float(value)
        except ValueError:
            k[1][r[at["Metric Name"]]] = float("nan")
    return [kernels[i] for i in sorted(kernels)]


def check_kernel(kname, name, width, op, global_space):
    """The kernel's template arguments must be the line's width, op and memory space."""
    m = KERNEL.search(kname)
    if not m:
        warnings.append(f"{name}: kernel name '{kname}' not recognised; width/op not cross-checked")
        return
    w, st, g = int(m.group(1)), m.group(2) in ("true", "1"), m.group(3) in ("true", "1")
    if (w, st, g) != (width, op == "store", global_space):
        errors.append(f"{name}: kernel {kname} does not match width {width} op {op}")


def counts(names_path, csv_path, global_space):
    """{(file, name): {column: value}} from one ncu run; per instruction."""
    names = read_names(names_path)
    kernels = read_ncu(csv_path) if csv_path and os.path.exists(csv_path) else []
    if csv_path and not os.path.exists(csv_path):
        errors.append(f"{csv_path} is missing (ncu did not run)")
    if kernels and len(kernels) != len(names):
        errors.append(f"{csv_path}: {len(kernels)} profiled kernels for {len(names)} launches; counts not used")
        kernels = []
    out = {}
    for i, (name, width, op, src) in enumerate(names):
        k, other = ("ld", "st") if op == "load" else ("st", "ld")
        row = {"width": width, "op": op}
        if not kernels:
            out[(src, name)] = row
            continue
        kname, m = kernels[i]
        check_kernel(kname, name, width, op, global_space)
        table = GLOBAL if global_space else SMEM
        inst = m.get(table["inst"].format(k), float("nan"))
        # ptxas hoists a global load out of the loop (it is plain ld.global, so the probe's truth was measured
        # that way too): one instruction, whose counters are still per instruction.
        allowed = (COUNT_REPS, 1) if global_space and op == "load" else (COUNT_REPS,)
        if inst not in allowed:
            errors.append(f"{name}: {fmt(inst)} {op} instructions executed, expected {COUNT_REPS}")
        if m.get(table["inst"].format(other), 0) != 0:
            errors.append(f"{name}: the kernel also executed {fmt(m[table['inst'].format(other)])} other-op instructions")
        for col, metric in table.items():
            if col != "inst":
                v = m.get(metric.format(k))
                if v is None:
                    errors.append(f"{name}: ncu reported no {metric.format(k)}")
                row[col] = v / inst if v is not None and inst and not math.isnan(inst) else float("nan")
        row["instructions"] = inst
        out[(src, name)] = row
    return out, names


def read_time(path):
    """{(file, name): (looped, unrolled)} from `calibrate time`."""
    out = {}
    if not path or not os.path.exists(path):
        errors.append(f"{path} is missing (time mode did not run)")
        return out
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        wanted = ("name", "cycles_per_warp_access", "cycles_unrolled", "file")
        if not all(c in header for c in wanted):
            errors.append(f"{path}: no header with {', '.join(wanted)} (did time mode fail?)")
            return out
        ix = {c: header.index(c) for c in wanted}
        for line in f:
            r = line.rstrip("\n").split("\t")
            try:
                out[(r[ix["file"]], r[ix["name"]])] = (float(r[ix["cycles_per_warp_access"]]),
                                                       float(r[ix["cycles_unrolled"]]))
            except (IndexError, ValueError):
                errors.append(f"{path}: malformed line {line.rstrip()!r}")
    return out


def read_tsv(path):
    """{name: {column: text}} of a truth TSV ('#' lines skipped)."""
    rows = {}
    if not os.path.exists(path):
        return rows
    with open(path) as f:
        lines = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
    header = lines[0].split("\t")
    for l in lines[1:]:
        r = l.split("\t")
        rows[r[0]] = dict(zip(header, r))
    return rows


def write(path, provenance, header, rows):
    with open(path, "w") as f:
        for p in provenance:
            f.write(f"# {p}\n" if p else "#\n")
        f.write("\t".join(header) + "\n")
        for r in rows:
            f.write("\t".join(r) + "\n")


def truth_name(src):
    """h200-calibration.patterns -> h200-calibration.truth.tsv."""
    base = os.path.basename(src)
    stem = base[: -len(".patterns")] if base.endswith(".patterns") else base
    return stem + ".truth.tsv"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--provenance", required=True, help="text file: the '#' header lines (without '# ')")
    ap.add_argument("--names", required=True)
    ap.add_argument("--csv")
    ap.add_argument("--time")
    ap.add_argument("--global-names")
    ap.add_argument("--global-csv")
    ap.add_argument("--out", required=True)
    ap.add_argument("--primary", required=True, help="the calibration pattern file (as passed to calibrate)")
    ap.add_argument("--known", help="the known pattern file; its truth is KNOWN with .truth.tsv")
    args = ap.parse_args()

    with open(args.provenance) as f:
        provenance = [l.rstrip("\n") for l in f]
    smem, names = counts(args.names, args.csv, False)
    timing = read_time(args.time)
    files = []
    for _, _, _, src in names:
        if src not in files:
            files.append(src)

    summary = []
    header = ["name", "width", "op", "wavefronts", "hw_wavefronts", "bank_conflicts", "cycles_per_warp_access",
              "cycles_unrolled"]
    measured = {}
    for src in files:
        rows = []
        for name, width, op, s in names:
            if s != src:
                continue
            c = smem[(s, name)]
            t = timing.get((s, name))
            if t is None:
                errors.append(f"{name} ({s}): no time line")
                t = (float("nan"), float("nan"))
            measured[(s, name)] = (c, t)
            rows.append([name, str(width), op, fmt(c.get("wf")), fmt(c.get("hw")), fmt(c.get("bc")),
                         "nan" if math.isnan(t[0]) else f"{t[0]:.3f}", "nan" if math.isnan(t[1]) else f"{t[1]:.3f}"])
        if src == args.known:
            continue
        out = os.path.join(args.out, truth_name(src))
        prov = [f"{os.path.basename(out)}: {os.path.basename(src)} measured by scripts/calibrate/run_calibration.sh"] + provenance
        write(out, prov, header, rows)
        summary.append(f"{os.path.basename(out)}: {len(rows)} patterns from {src}")

    if args.known:
        known_truth = read_tsv(args.known.replace(".patterns", ".truth.tsv"))
        known_unrolled = read_tsv(args.known.replace(".patterns", ".unrolled-cycles.tsv"))
        rows, same_wf, errs, unr, floors = [], 0, [], [], {"load": [], "store": []}
        for name, width, op, s in names:
            if s != args.known:
                continue
            c, t = measured[(s, name)]
            kt = known_truth.get(name)
            if kt is None:
                warnings.append(f"{name}: not in the known truth")
                continue
            wf_truth, cyc_truth = float(kt["wavefronts"]), float(kt["cycles_per_warp_access"])
            err = (t[0] - cyc_truth) / cyc_truth * 100
            same = c.get("wf") == wf_truth
            same_wf += same
            errs.append((abs(err), err, name))
            if wf_truth == 1:
                floors[op].append((t[0], cyc_truth))
            u_truth = float(known_unrolled[name]["cycles_per_warp_access_unrolled"]) if name in known_unrolled else float("nan")
            if not math.isnan(u_truth):
                unr.append((abs(t[1] - u_truth), name))
            ok = same and abs(err) <= CHECK_PERCENT
            if not same:
                warnings.append(f"harness check: {name}: {fmt(c.get('wf'))} wavefronts, known truth {fmt(wf_truth)}")
            elif abs(err) > CHECK_PERCENT:
                warnings.append(f"harness check: {name}: looped {t[0]:.3f} cycles, known truth {cyc_truth:.3f} ({err:+.1f} %)")
            rows.append([name, str(width), op, fmt(wf_truth), fmt(c.get("wf")), f"{cyc_truth:.3f}", f"{t[0]:.3f}",
                         f"{err:+.2f}", "nan" if math.isnan(u_truth) else f"{u_truth:.3f}", f"{t[1]:.3f}",
                         "ok" if ok else "CHECK"])
        write(os.path.join(args.out, "known-check.tsv"),
              [f"known-check.tsv: {args.known} re-measured against its truth (harness check)"] + provenance,
              ["name", "width", "op", "wavefronts_truth", "wavefronts", "cycles_truth", "cycles_per_warp_access",
               "error_percent", "unrolled_truth", "cycles_unrolled", "status"], rows)
        if rows:
            errs.sort(reverse=True)
            mean = sum(e[0] for e in errs) / len(errs)
            summary.append(f"harness check ({len(rows)} known patterns): wavefronts {same_wf}/{len(rows)} equal; "
                           f"looped cycles vs truth: worst {errs[0][1]:+.2f} % ({errs[0][2]}), mean |error| {mean:.2f} %")
            if unr:
                unr.sort(reverse=True)
                summary.append(f"  unrolled cycles vs h200-smem-known.unrolled-cycles.tsv: worst {unr[0][0]:.3f} cycles ({unr[0][1]})")
            for op in ("load", "store"):
                if floors[op]:
                    m = sum(x for x, _ in floors[op]) / len(floors[op])
                    tr = sum(y for _, y in floors[op]) / len(floors[op])
                    summary.append(f"  one-wavefront {op}s, looped: {m:.3f} cycles (truth {tr:.3f}, {len(floors[op])} patterns)")

    if args.global_names:
        g, gnames = counts(args.global_names, args.global_csv, True)
        gfiles = []
        for _, _, _, src in gnames:
            if src not in gfiles:
                gfiles.append(src)
        for src in gfiles:
            rows = [[n, str(w), op, fmt(g[(s, n)].get("sectors")), fmt(g[(s, n)].get("requests"))]
                    for n, w, op, s in gnames if s == src]
            out = os.path.join(args.out, truth_name(src))
            write(out, [f"{os.path.basename(out)}: {os.path.basename(src)} (global) measured by scripts/calibrate/run_calibration.sh"]
                  + provenance, ["name", "width", "op", "sectors", "requests"], rows)
            summary.append(f"{os.path.basename(out)}: {len(rows)} global patterns from {src}")

    prim = [(c, t) for (s, _), (c, t) in measured.items() if s == args.primary]
    if prim:
        wfs = [c.get("wf") for c, _ in prim if c.get("wf") is not None]
        loops = [t[0] for _, t in prim if not math.isnan(t[0])]
        if wfs and loops:
            summary.append(f"calibration: {len(prim)} patterns, wavefronts {fmt(min(wfs))}..{fmt(max(wfs))}, "
                           f"looped cycles {min(loops):.3f}..{max(loops):.3f}")
    lines = summary + [f"WARNING: {w}" for w in warnings] + [f"ERROR: {e}" for e in errors]
    lines.append(f"{len(errors)} errors, {len(warnings)} warnings")
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    shown = summary + [f"WARNING: {w}" for w in warnings[:20]] + [f"ERROR: {e}" for e in errors[:20]]
    if len(warnings) > 20 or len(errors) > 20:
        shown.append("(more in summary.txt)")
    print("\n".join(shown + lines[-1:]))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
