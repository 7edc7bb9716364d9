#!/usr/bin/env python3
"""The price tag every build checks: ptxas's resource report of a kernel file, held to zero overhead.

  ptxas_report.py compile REPORT -- NVCC ARGS...   runs NVCC ARGS with -Xptxas -v and writes ptxas's report
                                                   (its stderr lines) to REPORT; exits with nvcc's status
  ptxas_report.py check REPORT [REPORT...]         every function is a kernel (no out-of-line device function:
                                                   "Function properties" only for entries), has a 0 byte stack
                                                   frame, 0 bytes of spill stores and loads, and at most 128
                                                   registers; prints one line per kernel; exit 1 naming each
                                                   one that is not, 2 on unreadable input

A report line pair looks like
  ptxas info    : Function properties for _ZN7tilesim3gpu16copy_fp16_kernelILi0EEEvNS0_11kernel_argsE
      0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
  ptxas info    : Compiling entry function '_ZN...' for 'sm_90'
  ptxas info    : Used 20 registers, used 1 barriers
"""
import re
import subprocess
import sys

MAX_REGISTERS = 128


def compile_(report, command):
    done = subprocess.run(command + ["-Xptxas", "-v"], stderr=subprocess.PIPE, text=True)
    lines = done.stderr.splitlines()
    with open(report, "w") as f:
        f.write("\n".join(l for l in lines if l.startswith("ptxas") or "bytes stack frame" in l) + "\n")
    sys.stderr.write("\n".join(l for l in lines if not (l.startswith("ptxas") or "bytes stack frame" in l)))
    return done.returncode


def check(reports):
    bad = 0
    for report in reports:
        try:
            lines = open(report).read().splitlines()
        except OSError as e:
            print(f"ptxas_report: cannot read {report}: {e}")
            return 2
        entries, properties, registers = set(), {}, {}
        current = None
        for i, line in enumerate(lines):
            m = re.search(r"Compiling entry function '(\S+)'", line)
            if m:
                entries.add(m.group(1))
                current = m.group(1)
            m = re.search(r"Function properties for (\S+)", line)
            if m and i + 1 < len(lines):
                f = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", lines[i + 1])
                properties[m.group(1)] = tuple(int(x) for x in f.groups()) if f else None
            m = re.search(r"Used (\d+) registers", line)
            if m and current:
                registers[current] = int(m.group(1))
        if not entries:
            print(f"{report}: no kernel in the report")
            return 2
        for name, props in sorted(properties.items()):
            problems = []
            if name not in entries:
                problems.append("an out-of-line device function (not inlined into its kernel)")
            if props is None:
                problems.append("no stack/spill line")
            elif props != (0, 0, 0):
                problems.append(f"stack {props[0]} B, spill stores {props[1]} B, spill loads {props[2]} B")
            if registers.get(name, 0) > MAX_REGISTERS:
                problems.append(f"{registers[name]} registers (at most {MAX_REGISTERS})")
            status = "; ".join(problems) if problems else "ok"
            print(f"{report}: {name}: {registers.get(name, '?')} registers, stack/spills {props}: {status}")
            bad += bool(problems)
        for name in sorted(entries - set(properties)):
            print(f"{report}: {name}: no Function properties line")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "compile" and "--" in sys.argv:
        at = sys.argv.index("--")
        sys.exit(compile_(sys.argv[2], sys.argv[at + 1:]))
    if len(sys.argv) >= 3 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2:]))
    print(__doc__.strip().splitlines()[2])
    sys.exit(2)
