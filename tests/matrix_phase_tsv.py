#!/usr/bin/env python3
"""tests/matrix_phase_tsv.py SOURCE_ROOT: scripts/calibrate/matrix_phase_tsv.py, which turns a phase probe's run under
Nsight Compute into data/calibration/h200-*matrix-phases.tsv rows, held to the one recording made by hand.

Law 1 (round trip): from the probe's launch lines and an ncu --csv log holding h200-ldmatrix-phases.tsv's numbers
(each launch with the four metrics of its command, the other class's metrics 0, ncu's ==PROF== lines and thousands
separators as ncu writes them), the script prints that file's 24 rows exactly, under the header lines it is given.
Law 2 (stmatrix rows): stmatrix.xN and STS.128 launches read op_stsm and op_st / op_shared_st.
Law 3 (refusals): a launch whose metric is missing, and a probe run that did not end with "ok", exit 1 naming it.
Prints one line per law; exits 1 on the first broken one.
"""
import csv
import io
import os
import subprocess
import sys
import tempfile

root = sys.argv[1] if len(sys.argv) > 1 else '.'
SCRIPT = os.path.join(root, 'scripts', 'calibrate', 'matrix_phase_tsv.py')
HEADER = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size",
          "Grid Size", "Device", "CC", "Section Name", "Metric Name", "Metric Unit", "Metric Value"]
OPS = {"ldmatrix": ("op_ldsm", "op_ldsm"), "LDS.128": ("op_shared_ld", "op_ld"),
       "stmatrix": ("op_stsm", "op_stsm"), "STS.128": ("op_shared_st", "op_st")}
OTHER = {"ldmatrix": "LDS.128", "LDS.128": "ldmatrix", "stmatrix": "STS.128", "STS.128": "stmatrix"}  # same command


def fake_run(rows, drop=None, ok=True):
    """The probe's stdout and ncu's CSV log for rows of (instruction, pattern, instructions, wavefronts)."""
    out = io.StringIO()
    w = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
    w.writerow(HEADER)
    launches = []
    for k, (ins, pat, n, wf) in enumerate(rows):
        launches.append(f"launch {k}: {ins} {pat}")
        mine = next(f for f in OPS if ins.startswith(f))
        for fam in (mine, OTHER[mine]):
            inst_op, wave_op = OPS[fam]
            for metric, value in ((f"smsp__sass_inst_executed_{inst_op}.sum", n),
                                  (f"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_{wave_op}.sum", wf)):
                if drop == (k, metric):
                    continue
                shown = value if fam == mine else 0
                w.writerow([k, 4242, "probe", "h", "probe", 1, 7, "(32, 1, 1)", "(1, 1, 1)", 0, "9.0",
                            "Command line profiler metrics", metric, "", f"{int(shown):,}"])
    log = "==PROF== Connected to process 4242\n" + out.getvalue() + "==PROF== Disconnected from process 4242\n"
    return "\n".join(launches) + ("\nok\n" if ok else "\n"), log


def run(launches, log, *headers):
    with tempfile.TemporaryDirectory() as d:
        a, b = os.path.join(d, "launches.txt"), os.path.join(d, "ncu.csv")
        open(a, "w").write(launches)
        open(b, "w").write(log)
        p = subprocess.run([sys.executable, SCRIPT, a, b, *headers], capture_output=True, text=True)
        return p.returncode, p.stdout


def main():
    recorded = open(os.path.join(root, "data", "calibration", "h200-ldmatrix-phases.tsv")).read().splitlines()
    rows = [tuple(l.split("\t")) for l in recorded if l and not l.startswith("#") and not l.startswith("instruction\t")]
    rc, out = run(*fake_run(rows), "first header", "second header")
    want = "\n".join(["# first header", "# second header"] + [l for l in recorded if not l.startswith("#")]) + "\n"
    if rc != 0 or out != want or len(rows) != 24:
        print(f"law 1 broken: exit {rc}, output differs from h200-ldmatrix-phases.tsv:\n{out}")
        return 1
    print("law 1: the 24 rows of h200-ldmatrix-phases.tsv come back exactly")
    st = [("stmatrix.x4", "one-row", "1", "4"), ("stmatrix.x1", "eight-way", "1", "8"), ("STS.128", "one-row", "1", "4")]
    rc, out = run(*fake_run(st))
    if rc != 0 or out.splitlines()[1:] != ["\t".join(r) for r in st]:
        print(f"law 2 broken: exit {rc}:\n{out}")
        return 1
    print("law 2: stmatrix and STS.128 rows read op_stsm and op_st")
    rc, out = run(*fake_run(st, drop=(1, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum")))
    rc2, out2 = run(*fake_run(st, ok=False))
    if rc != 1 or "launch 1 (stmatrix.x1 eight-way)" not in out or rc2 != 1 or "did not end with 'ok'" not in out2:
        print(f"law 3 broken: missing metric: exit {rc}: {out!r}; no 'ok': exit {rc2}: {out2!r}")
        return 1
    print("law 3: a missing metric and an unfinished probe run exit 1, naming them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
