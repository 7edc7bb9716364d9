#!/usr/bin/env python3
"""tests/readme_blocks.py TILESIM SOURCE_ROOT CXX...: every code block of README.md is compiled, run or checked.

THE LAW. No README.md code block can drift from the code (issue 16). Per fence:
  ```cpp    compiled (-std=c++20 -fsyntax-only, the build's compiler) against spec/ and sim/: leading #include /
            using / template / struct lines (up to the first blank line) at namespace scope, the rest inside
            a function; the prelude includes spec/spec.hpp and the sim/ headers a program uses and declares
            `struct rotate_params { int output; }`, the one name "Writing a program" leaves to the reader.
  ```text   starting with `$ tilesim ...`: each command run (in a scratch directory holding links to sim/,
            examples/ and gpu/, so files it writes land there) and every shown output line that is not elided
            ("...") must appear in its output, in order. `$ [VAR=value] bash data/recordings/...` (needs a GPU): every line
            must appear, in order, in the recording's log in data/recordings/. Any other text block is the main
            job's table, which the unit test cli-examples holds to `tilesim examples` byte for byte.
  ```sh     every repository path it names exists, and every `ninja -C DIR X/Y` target is an executable('Y')
            of X/meson.build.
  ```cmake  every line is a line of tests/consumer/CMakeLists.txt (my_program spelled transpose) or of
            tests/consumer/gpu/CMakeLists.txt, which the unit tests consumer and consumer-gpu build against the
            installed package.
KNOWN_DRIFT lists blocks that drift today (by their first line) with why; they are reported, not failed, and
one that matches again fails until it is taken off the list. Exit 0 when the law holds; 1 naming each block.
"""
import os
import re
import subprocess
import sys
import tempfile

KNOWN_DRIFT = {}

# What a GPU-only command's README excerpt is held to: the log its last recording kept.
RECORDING_LOGS = {"scripts/recordings/record_zero_overhead.sh": "data/recordings/h100-direct-store-zero-overhead.log"}

PRELUDE = """#include "spec/spec.hpp"
#include "sim/arch/arch.hpp"
#include "sim/engine/engine.hpp"
#include "kernel/model/program.hpp"
#include "sim/report/program_report.hpp"
using namespace tilesim;
"""


def blocks(lines):
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\w*)$", lines[i])
        if m:
            j = i + 1
            while j < len(lines) and lines[j] != "```":
                j += 1
            yield i + 1, m.group(1), lines[i + 1:j]
            i = j
        i += 1


def in_order(expected, actual):
    """The expected lines not found in `actual` in order ("..." lines and blank lines skipped)."""
    pos, missing = 0, []
    for e in expected:
        if "..." in e or not e.strip():
            continue
        try:
            pos = actual.index(e, pos) + 1
        except ValueError:
            missing.append(e)
    return missing


def check_cpp(body, root, cxx, tmp):
    head = []
    if body and re.match(r"^(#include|using |template|struct )", body[0]):
        while body and body[0].strip():
            head.append(body.pop(0))
    source = PRELUDE + "\n".join(head) + "\nvoid readme_block() {\n" + "\n".join(body) + "\n}\n"
    path = os.path.join(tmp, "block.cpp")
    with open(path, "w") as f:
        f.write(source)
    out = subprocess.run(cxx + ["-std=c++20", "-fsyntax-only", "-I", root, path], capture_output=True, text=True)
    return [] if out.returncode == 0 else [out.stderr.strip()[:1500]]


def check_text(body, root, tilesim):
    words = body[0].split()[1:]
    while words and re.match(r"[A-Z_]+=", words[0]):  # "$ SEED=N bash data/recordings/..."
        words = words[1:]
    if body[0].startswith("$ ") and words[:1] == ["bash"] and len(words) > 1 and words[1].startswith("data/recordings/"):
        script = words[1]
        log = os.path.join(root, RECORDING_LOGS.get(script, script + ": no recording log known"))
        with open(log) as f:
            return in_order([b for b in body[1:]], f.read().split("\n"))
    commands, k = [], 0
    while k < len(body):
        if body[k].startswith("$ "):
            c = body[k][2:]
            while c.endswith("\\"):
                k += 1
                c = c[:-1] + " " + body[k].strip()
            commands.append([c, []])
        else:
            commands[-1][1].append(body[k])
        k += 1
    missing = []
    with tempfile.TemporaryDirectory() as tmp:
        for d in ("sim", "examples", "gpu", "data", "kernel"):
            os.symlink(os.path.join(root, d), os.path.join(tmp, d))
        os.mkdir(os.path.join(tmp, "docs"))
        for c, expected in commands:
            command = re.sub(r"(^|[|;]\s*|do )tilesim ", lambda m: m.group(1) + tilesim + " ", c)
            out = subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=tmp)
            missing += [f"`{c[:60]}` did not print: {m}" for m in in_order(expected, out.stdout.split("\n"))]
    return missing


def check_sh(body, root):
    problems = []
    for line in body:
        for token in re.findall(r"(?:scripts|gpu|sim|bench|examples|cli)/[\w./-]+\.(?:sh|py|cpp|hpp|cu)\b", line):
            if not os.path.exists(os.path.join(root, token)):
                problems.append(f"{token} does not exist")
        m = re.search(r"ninja -C \S+ (.*)$", line)
        if m:
            for target in m.group(1).split():
                folder, _, name = target.rpartition("/")
                build_file = os.path.join(root, folder, "meson.build")
                text = open(build_file).read() if os.path.exists(build_file) else ""
                if f"executable('{name}'" not in text:
                    problems.append(f"ninja target {target}: no executable('{name}' in {folder}/meson.build")
    return problems


def check_cmake(body, root):
    consumer = []
    for path in (("tests", "consumer", "CMakeLists.txt"), ("tests", "consumer", "gpu", "CMakeLists.txt")):
        with open(os.path.join(root, *path)) as f:
            consumer += [line.strip() for line in f]
    return [f"tests/consumer/{{,gpu/}}CMakeLists.txt has no line {line!r}" for line in body
            if line.split("#")[0].strip().replace("my_program", "transpose") not in consumer]


def main(argv):
    tilesim, root, cxx = os.path.abspath(argv[1]), os.path.abspath(argv[2]), argv[3:]
    with open(os.path.join(root, "README.md")) as f:
        lines = f.read().split("\n")
    failed = counted = 0
    with tempfile.TemporaryDirectory() as tmp:
        for line, lang, body in blocks(lines):
            if lang == "cpp":
                problems, how = check_cpp(list(body), root, cxx, tmp), "compiled"
            elif lang == "text" and body and body[0].startswith("$ "):
                problems, how = check_text(body, root, tilesim), "run"
            elif lang == "text":
                problems, how = [], "held by cli-examples"
            elif lang == "sh":
                problems, how = check_sh(body, root), "paths and targets checked"
            elif lang == "cmake":
                problems, how = check_cmake(body, root), "checked against tests/consumer"
            else:
                problems, how = [f"a ```{lang} block: this test does not know how to check it"], ""
            counted += 1
            drift = KNOWN_DRIFT.get(body[0] if body else "")
            if drift and problems:
                print(f"known drift: README.md:{line} ({drift}); {len(problems)} lines differ, first: {problems[0][:160]}")
            elif drift:
                print(f"FAIL: README.md:{line} matches again: take it off KNOWN_DRIFT in tests/readme_blocks.py")
                failed += 1
            elif problems:
                print(f"FAIL: README.md:{line} ```{lang}: " + "\nFAIL:   ".join(problems[:5]))
                failed += 1
            else:
                print(f"ok: README.md:{line} ```{lang} {how}")
    print(f"{counted} code blocks, {failed} failing")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
