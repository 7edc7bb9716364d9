#!/usr/bin/env python3
"""Runs a libFuzzer target for a bounded time over its seed corpus: run_fuzzer.py FUZZER SEEDS SECONDS [MAX_LEN].

The test command's fuzzing step (issue 38): the target reads every seed, then mutates for SECONDS seconds
(-max_total_time), new inputs going to a temporary corpus so the repository's seeds stay as committed. Law:
no input makes the target crash, abort (a broken law in the target), leak, time out (10 s an input) or pass
2048 MB. A finding is copied next to the build (fuzz-finding-NAME-...) and printed with the command that
reproduces it; exit 1. Exit 0 when the time ran out with no finding.
"""
import pathlib
import shutil
import subprocess
import sys
import tempfile


def main(argv):
    if len(argv) not in (4, 5):
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    fuzzer, seeds, seconds = argv[1], argv[2], int(argv[3])
    max_len = argv[4] if len(argv) == 5 else "65536"
    name = pathlib.Path(fuzzer).name
    with tempfile.TemporaryDirectory(prefix=f"tilesim-{name}-") as tmp:
        corpus = pathlib.Path(tmp) / "corpus"
        corpus.mkdir()
        cmd = [fuzzer, f"-max_total_time={seconds}", "-timeout=10", "-rss_limit_mb=2048", f"-max_len={max_len}",
               "-seed=38", "-print_final_stats=1", f"-artifact_prefix={tmp}/", str(corpus), seeds]
        print(" ".join(cmd), flush=True)
        rc = subprocess.run(cmd).returncode
        if rc == 0:
            return 0
        for artifact in sorted(pathlib.Path(tmp).glob("*-*")):
            if artifact.is_file():
                kept = pathlib.Path.cwd() / f"fuzz-finding-{name}-{artifact.name}"
                shutil.copy(artifact, kept)
                print(f"run_fuzzer.py: {name} found {artifact.name}; reproduce: {fuzzer} {kept}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
