#!/usr/bin/env python3
"""tests/readme_blocks.py TILESIM SOURCE_ROOT CXX...: every code block and relative link of README.md and of each
docs/**/*.md page is compiled, run or checked.

THE LAW. No code block of README.md or of a page under docs/ can drift from the code (issues 16, 35). Per fence:
  ```cpp    compiled (-std=c++20 -fsyntax-only, the build's compiler) against spec/ and sim/: leading #include /
            using / template / struct lines (up to the first blank line) at namespace scope, the rest inside
            a function; the prelude includes spec/spec.hpp and the sim/ headers a program uses and declares
            `struct rotate_params { int output; }`, the one name "Writing a program" leaves to the reader.
  ```text   starting with `$ tilesim ...`: each command run (in a scratch directory holding links to sim/,
            examples/ and gpu/, so files it writes land there) and every shown output line that is not elided
            ("...") must appear in its output, in order. `$ [VAR=value] bash scripts/recordings/...` (needs a GPU): every line
            must appear, in order, in the recording's log in data/recordings/ (RECORDING_LOGS).
  ```text   right after a line `<!-- source-table: PAGE LAYOUT LISTING -->`: the per-instruction table that
            examples/user_program/source_match.test.cpp holds line for line to the comparison of PAGE; here PAGE and
            LISTING must exist.
  ```text   the first one after README.md's heading "## The main job: `tilesim examples`": the main job's table,
            which the unit test cli-examples holds to `tilesim examples` byte for byte. Only there: any other
            text block that is not a command block fails.
  ```sh     every repository path it names exists, and every `ninja -C DIR X/Y` target is an executable('Y')
            of X/meson.build.
  ```cmake  every line is a line of tests/consumer/CMakeLists.txt (my_program spelled transpose) or of
            tests/consumer/gpu/CMakeLists.txt, which the unit tests consumer and consumer-gpu build against the
            installed package.
  ```sh / ```cmake right after a line `<!-- newcomer: NAME -->` (README.md only): also run as written, in order, from
            a fresh build by the unit test newcomer (tests/consumer/newcomer.sh), whose NAMES must list NAME.
  ```python only in docs/python.md: its blocks run in order, in one namespace, in the unit test python
            (python/tests/test_docs.py), which needs the module built (-Dpython); here nothing more is checked.
  ```output (illustrative output) and ```excerpt (quoted code of another day, as in a design note): nothing
            runs or compiles them, so each must be listed in NOT_RUN (file and first line, with why). An
            unlisted one fails, and so does a listed one that is gone: such blocks stay rare and reviewed.
  Any other fence, and an indented (4-space) code block outside a list, fails: fence it with one of the above.
LINKS. Every relative Markdown link or image, [text](target), in those files names a file or folder that exists
(relative to the page); a #fragment into a Markdown page (or the page itself) must be one of its headings'
anchors (GitHub's: lower case, punctuation dropped, spaces to '-'). http(s) and mailto links are not followed.
COUNTERS. The counters a cross-check compares have one number everywhere: a number written right before
"counters" (optionally "Nsight Compute's", "hardware" or "GPU" between) in README.md, docs/** (pages and JSON
schemas) or the help texts (gpu/crosscheck/help.hpp) must be the count of metrics counter_metrics() lists in
gpu/crosscheck/counters.cpp; a subset is spelled "eight of the twelve counters".
KNOWN_DRIFT lists blocks that drift today (by their first line) with why; they are reported, not failed, and
one that matches again fails until it is taken off the list. Exit 0 when the law holds; 1 naming each block.
"""
import os
import re
import subprocess
import sys
import tempfile

KNOWN_DRIFT = {}

# The ```output and ```excerpt blocks nothing runs or compiles, by (page, first line): why each may stay so.
NOT_RUN = {
    ("docs/gpu.md", "tilesim-props-compile --cases 8 --seed 18 --from 200 --jobs 1 (this 2-core machine, shared)"):
        "one run's timings, which vary from run to run (and tilesim-props-compile needs a CUDA build)",
    ("docs/design/zero-overhead-device-code.md",
     "template <tile_distribution_encoding E> __device__ void c2_body(index_t* out) {"):
        "a CUDA probe of the design note, as it measured the tree of its day",
    ("docs/design/zero-overhead-device-code.md",
     "constexpr auto traits = make_load_store_traits(E, vector_guarantees<2>{{{unknown, unknown}, {Cols, 1}}});"):
        "a fragment of the design note's probe W3 (free names: E, Cols, th, in, row0, t, dstride)",
}

# What a GPU-only command's excerpt (README.md or docs/) is held to: the log its last recording kept.
RECORDING_LOGS = {"scripts/recordings/record_zero_overhead.sh": "data/recordings/h100-direct-store-zero-overhead.log"}

PRELUDE = """#include "spec/spec.hpp"
#include "sim/arch/arch.hpp"
#include "sim/engine/engine.hpp"
#include "kernel/model/program.hpp"
#include "sim/report/program_report.hpp"
using namespace tilesim;
"""


def blocks(lines):
    """(line number of the fence, info string, body) of every fenced block; an unclosed fence runs to the end."""
    i = 0
    while i < len(lines):
        m = re.match(r"^```(.*)$", lines[i])
        if m:
            j = i + 1
            while j < len(lines) and lines[j] != "```":
                j += 1
            yield i + 1, m.group(1).strip(), lines[i + 1:j]
            i = j
        i += 1


def outside_fences(lines):
    """(line number, line) of every line that is not inside a fenced block (nor a fence)."""
    inside = False
    for n, line in enumerate(lines, 1):
        if line.startswith("```"):
            inside = not inside
            continue
        if not inside:
            yield n, line


def indented_code(lines):
    """Line numbers of indented (4-space or tab) code blocks: after a blank line, not continuing a list item."""
    found, previous, last_text = [], "", ""
    for n, line in outside_fences(lines):
        if re.match(r"^( {4}|\t)\S", line) and not previous.strip():
            in_list = re.match(r"^\s*([-*+]|\d+[.)])\s", last_text) or re.match(r"^\s", last_text)
            if not in_list:
                found.append(n)
        if line.strip():
            last_text = line
        previous = line
    return found


def anchors(lines):
    """GitHub's anchors of a Markdown page's headings."""
    seen, result = {}, set()
    for _, line in outside_fences(lines):
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).lower().replace("`", "")).replace(" ", "-")
            k = seen.get(slug, 0)
            seen[slug] = k + 1
            result.add(slug if k == 0 else f"{slug}-{k}")
    return result


def check_links(path, lines, root):
    """Every relative link's file exists; a fragment names a heading of the Markdown page it points to."""
    problems = []
    for n, line in outside_fences(lines):
        line = re.sub(r"`[^`]*`", "", line)  # a link spelled inside inline code is text, not a link
        for target in re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", line):
            if re.match(r"^(https?:|mailto:)", target):
                continue
            file, _, fragment = target.partition("#")
            where = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
            if not os.path.exists(where):
                problems.append(f"line {n}: link {target}: {os.path.relpath(where, root)} does not exist")
            elif fragment and where.endswith(".md"):
                with open(where) as f:
                    if fragment not in anchors(f.read().split("\n")):
                        problems.append(f"line {n}: link {target}: no heading with the anchor #{fragment}")
    return problems


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
    while words and re.match(r"[A-Z_]+=", words[0]):  # "$ SEED=N bash scripts/recordings/..."
        words = words[1:]
    if body[0].startswith("$ ") and words[:1] == ["bash"] and len(words) > 1 and words[1].startswith("scripts/recordings/"):
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


def newcomer_names(root):
    """The block names tests/consumer/newcomer.sh runs (its NAMES=(...) line)."""
    with open(os.path.join(root, "tests", "consumer", "newcomer.sh")) as f:
        m = re.search(r"^NAMES=\((.*)\)$", f.read(), re.M)
    return set(m.group(1).split()) if m else set()


def pages(root):
    """README.md, then every docs/**/*.md, as paths relative to root."""
    found = ["README.md"]
    for folder, dirs, files in os.walk(os.path.join(root, "docs")):
        dirs.sort()
        found += sorted(os.path.relpath(os.path.join(folder, f), root) for f in files if f.endswith(".md"))
    return found


MAIN_JOB = "## The main job: `tilesim examples`"


def check_page(page, root, tilesim, cxx, tmp, not_run_seen):
    """Prints one line per block of `page`; returns (blocks counted, blocks failing)."""
    path = os.path.join(root, page)
    with open(path) as f:
        lines = f.read().split("\n")
    failed = counted = 0
    main_job_at = lines.index(MAIN_JOB) + 1 if page == "README.md" and MAIN_JOB in lines else None
    for line, lang, body in blocks(lines):
        before = next((lines[k] for k in range(line - 2, -1, -1) if lines[k].strip()), "")
        marker = re.match(r"^<!-- source-table: (\S+) (\S+) (\S+) -->$", before)
        newcomer = re.match(r"^<!-- newcomer: (\S+) -->$", before)
        if lang == "cpp":
            problems, how = check_cpp(list(body), root, cxx, tmp), "compiled"
        elif lang == "text" and body and body[0].startswith("$ "):
            problems, how = check_text(body, root, tilesim), "run"
        elif lang == "text" and marker:
            problems = [f"{f} (named by the source-table marker) does not exist"
                        for f in (marker.group(1), marker.group(3)) if not os.path.exists(os.path.join(root, f))]
            how = "held by examples/user_program/source_match.test.cpp"
        elif lang == "text" and main_job_at is not None and line > main_job_at and \
                not any(l.startswith("```text") for l in lines[main_job_at:line - 1]):
            problems, how = [], "the main job's table, held by cli-examples"
        elif lang == "text":
            problems, how = ["a text block that is neither a `$ ` command block, the main job's table (README.md only) "
                             "nor a source table: make it a command block, or fence it ```output and list it in "
                             "NOT_RUN"], ""
        elif lang == "sh":
            problems, how = check_sh(body, root), "paths and targets checked"
        elif lang == "cmake":
            problems, how = check_cmake(body, root), "checked against tests/consumer"
        elif lang == "python":
            problems = [] if page == "docs/python.md" else [
                "a ```python block outside docs/python.md: only that page's blocks are run (python/tests/test_docs.py)"]
            how = "run in order by the unit test python (python/tests/test_docs.py)"
        elif lang in ("output", "excerpt"):
            why = NOT_RUN.get((page, body[0] if body else ""))
            if why:
                not_run_seen.add((page, body[0] if body else ""))
            problems = [] if why else [f"a ```{lang} block not listed in NOT_RUN: nothing checks it"]
            how = f"not run: {why}"
        else:
            problems, how = [f"a ```{lang} block: this test does not know how to check it"], ""
        if newcomer:
            if page != "README.md" or lang not in ("sh", "cmake"):
                problems.append(f"a newcomer marker before a ```{lang} block of {page}: tests/consumer/newcomer.sh "
                                "runs ```sh and ```cmake blocks of README.md only")
            elif newcomer.group(1) not in newcomer_names(root):
                problems.append(f"marked newcomer: {newcomer.group(1)}, which tests/consumer/newcomer.sh's NAMES "
                                "does not list: nothing runs it")
            how += f"; run as written by the unit test newcomer ({newcomer.group(1)})"
        counted += 1
        drift = KNOWN_DRIFT.get(body[0] if body else "")
        if drift and problems:
            print(f"known drift: {page}:{line} ({drift}); {len(problems)} lines differ, first: {problems[0][:160]}")
        elif drift:
            print(f"FAIL: {page}:{line} matches again: take it off KNOWN_DRIFT in tests/readme_blocks.py")
            failed += 1
        elif problems:
            print(f"FAIL: {page}:{line} ```{lang}: " + "\nFAIL:   ".join(problems[:5]))
            failed += 1
        else:
            print(f"ok: {page}:{line} ```{lang} {how}")
    for n in indented_code(lines):
        print(f"FAIL: {page}:{n} an indented code block: nothing checks it; fence it (```output if it is not run)")
        failed += 1
    for problem in check_links(path, lines, root):
        print(f"FAIL: {page}: {problem}")
        failed += 1
    return counted, failed


NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]


def counter_count(root):
    """How many metrics gpu/crosscheck/counters.cpp's counter_metrics() lists (its string literals)."""
    with open(os.path.join(root, "gpu", "crosscheck", "counters.cpp")) as f:
        text = f.read()
    m = re.search(r"counter_metrics\(\)\s*\{(.*?)\n\}", text, re.S)
    return len(re.findall(r'"[^"]+"', re.sub(r"//[^\n]*", "", m.group(1)))) if m else 0


def check_counter_numbers(root):
    """COUNTERS: every "N counters" in README.md, docs/** and the help texts names counter_metrics()'s count."""
    count = counter_count(root)
    files = [os.path.join(root, p) for p in pages(root)] + [os.path.join(root, "gpu", "crosscheck", "help.hpp")]
    for folder, _, names in os.walk(os.path.join(root, "docs")):
        files += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".json")]
    pattern = re.compile(r"\b(\d+|" + "|".join(NUMBER_WORDS) + r")\s+(?:(?:Nsight Compute's|Nsight|hardware|GPU)\s+)?"
                         r"counters\b", re.I)
    problems, seen = [], 0
    for path in files:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                for m in pattern.finditer(line):
                    word = m.group(1).lower()
                    value = int(word) if word.isdigit() else NUMBER_WORDS.index(word)
                    seen += 1
                    if value != count:
                        problems.append(f"{os.path.relpath(path, root)}:{n}: \"{m.group(0)}\", but counter_metrics() "
                                        f"(gpu/crosscheck/counters.cpp) lists {count}")
    if count == 0:
        problems.append("gpu/crosscheck/counters.cpp: no counter_metrics() list found")
    return seen, count, problems


def main(argv):
    tilesim, root, cxx = os.path.abspath(argv[1]), os.path.abspath(argv[2]), argv[3:]
    failed = counted = 0
    not_run_seen = set()
    with tempfile.TemporaryDirectory() as tmp:
        for page in pages(root):
            c, f = check_page(page, root, tilesim, cxx, tmp, not_run_seen)
            counted, failed = counted + c, failed + f
    seen, count, problems = check_counter_numbers(root)
    for problem in problems:
        print(f"FAIL: counters: {problem}")
    failed += len(problems)
    if not problems:
        print(f"ok: counters: {seen} mentions of a number of counters, each {NUMBER_WORDS[count]} (counter_metrics())")
    for page, first in sorted(set(NOT_RUN) - not_run_seen):
        print(f"FAIL: NOT_RUN lists a block of {page} starting {first!r} that is not there: take it off the list")
        failed += 1
    print(f"{counted} code blocks in {len(pages(root))} pages, {failed} failing")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
