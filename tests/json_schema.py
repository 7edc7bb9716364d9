#!/usr/bin/env python3
"""tests/json_schema.py TILESIM TILESIM_ACCURACY SOURCE_ROOT: JSON outputs match their schemas (issue 16).

THE LAW. Every JSON document tilesim writes carries a versioned "schema" field and is valid under the JSON
Schema (draft 2020-12) of that name in docs/schema/: `tilesim run --json` (copy and gemm, every arch) and
`tilesim-accuracy RECORDING --point NAME` against program-report.schema.json; `tilesim synth --json` against
synth.schema.json; `tilesim prove --json` (a shard, and --merge of three) against prove.schema.json; `tilesim run
--sample K --json` and `--workgroups A:B` against program-sample and program-partial; every `tilesim-gpu props`
recording against gpu-props.schema.json; every
cross-check recording in data/recordings/ that carries the field (the GPU writes them: `tilesim-gpu crosscheck
--report`) against crosscheck.schema.json, those written before the field existed being named in PRE_SCHEMA
(one that gains the field must come off the list, and at least one recording must carry it). Each
schema is itself a valid draft 2020-12 schema and rejects its document with another "schema" version, so the
field is checked, not decoration. Exit 0 when all hold; 1 naming the document and the first violation; 77
(skipped) where Python's jsonschema module is missing (scripts/setup.sh installs python3-jsonschema).
"""
import json
import os
import subprocess
import sys
import tempfile

# Cross-check recordings written before `schema` existed (their seeds were doubles, their counters fewer).
PRE_SCHEMA = {
    "h200-crosscheck.json": "2026-11-21, eight counters, before the zero-overhead kernels",
    "h100-timing.json": "2026-11-23, ten counters, before ldmatrix was counted apart",
}

try:
    import jsonschema
except ImportError:
    # Debian's python3-jsonschema is for /usr/bin/python3; the python3 on PATH may be another one (pyenv).
    if os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])
    print("skipped: python3 module jsonschema is missing (scripts/setup.sh installs python3-jsonschema)")
    sys.exit(77)


def main(argv):
    tilesim, accuracy, root = argv[1], argv[2], argv[3]
    schemas = {}
    for name in ("program-report", "synth", "prove", "crosscheck", "program-sample", "program-partial", "gpu-props"):
        with open(os.path.join(root, "docs", "schema", name + ".schema.json")) as f:
            schemas[name] = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schemas[name])
    failures = 0
    checked = 0

    def check(name, command):
        nonlocal failures, checked
        out = subprocess.run(command, capture_output=True, text=True, cwd=root)
        label = " ".join(os.path.basename(c) if i == 0 else c for i, c in enumerate(command))
        if out.returncode != 0:
            print(f"FAIL: {label} exited {out.returncode}: {out.stderr.strip()[:300]}")
            failures += 1
            return None
        text = out.stdout[out.stdout.index("{"):]  # tilesim-accuracy --point prints one line before the object
        validate(name, label, json.loads(text))
        return out.stdout

    def validate(name, label, doc):
        nonlocal failures, checked
        validator = jsonschema.Draft202012Validator(schemas[name])
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        if errors:
            e = errors[0]
            print(f"FAIL: {label}: {'/'.join(map(str, e.path)) or '(top)'}: {e.message}")
            failures += 1
        bumped = dict(doc, schema=doc.get("schema", "") + "-other")
        if validator.is_valid(bumped):
            print(f"FAIL: {name}.schema.json accepts {label}'s document with schema \"{bumped['schema']}\"")
            failures += 1
        checked += 1

    for program in ("copy", "gemm"):
        for arch in ("sm90", "gfx90a", "gfx942", "gfx950"):
            check("program-report", [tilesim, "run", program, "--arch", arch, "--json"])
    with open(os.path.join(root, "data", "recordings", "h100-timing.json")) as f:
        point = json.load(f)["points"][0]["name"]
    check("program-report", [accuracy, "data/recordings/h100-timing.json", "--point", point])
    check("synth", [tilesim, "synth", "--arch", "gfx942", "--json"])
    check("synth", [tilesim, "synth", "--arch", "sm90", "--family", "ck", "--json"])
    with tempfile.TemporaryDirectory() as tmp:
        shards = []
        for i in (1, 2, 3):
            text = check("prove", [tilesim, "prove", "ck-lds", "--shard", f"{i}/3", "--json"])
            path = os.path.join(tmp, f"shard{i}.json")
            with open(path, "w") as f:
                f.write(text or "")
            shards.append(path)
        check("prove", [tilesim, "prove", "--merge", *shards, "--json"])
    check("program-sample", [tilesim, "run", "gemm", "--m", "256", "--n", "256", "--k", "64", "--sample", "4", "--json"])
    check("program-partial", [tilesim, "run", "gemm", "--m", "128", "--n", "128", "--k", "64", "--workgroups", "0:2"])
    def check_props_counters(doc, file):
        # The shape `tilesim-gpu props` writes once counters are measured (gpu/rtc_props/counters_pass.hpp; the flow
        # test asserts the C++ side): the eight measured fields under "gpu", the summary's counters fields. It
        # must validate, and the same row missing a measured field must not (the definition is not decoration).
        nonlocal failures
        measured = json.loads(json.dumps(doc))
        row = measured["cases"][0]
        sim = row["simulator"]["counters"]
        row["gpu"]["counters"] = {k: sim[k] for k in list(sim)[:8]}
        row["counters_equal"] = True
        measured.setdefault("summary", {}).update(counters_measured=1, counters_pending=len(measured["cases"]) - 1,
                                                  cases_counters_differ=0, counters_equal=None, counters_error=None,
                                                  counters_passes=[{"command": "tilesim-gpu props --counters-only",
                                                                    "date": "2026-11-24T23:00:00Z", "kernels": 1,
                                                                    "ncu_runs": 1, "seconds": 4.5}])
        validate("gpu-props", f"data/recordings/{file} with measured counters", measured)
        del row["gpu"]["counters"]["global_sectors_st"]
        if jsonschema.Draft202012Validator(schemas["gpu-props"]).is_valid(measured):
            print(f"FAIL: gpu-props.schema.json accepts GPU counters without global_sectors_st ({file})")
            failures += 1

    recordings = os.path.join(root, "data", "recordings")
    carrying = 0
    for file in sorted(os.listdir(recordings)):
        if not file.endswith(".json"):
            continue
        with open(os.path.join(recordings, file)) as f:
            doc = json.load(f)
        if doc.get("tool") == "tilesim-gpu props":
            validate("gpu-props", f"data/recordings/{file}", doc)
            check_props_counters(doc, file)
            continue
        if doc.get("tool") not in ("tilesim-gpu crosscheck", "tilesim::gpu::crosscheck"):
            continue
        if "schema" not in doc:
            if file not in PRE_SCHEMA:
                print(f"FAIL: data/recordings/{file} has no \"schema\" field and is not in PRE_SCHEMA")
                failures += 1
            continue
        if file in PRE_SCHEMA:
            print(f"FAIL: data/recordings/{file} carries \"schema\": take it off PRE_SCHEMA in tests/json_schema.py")
            failures += 1
        validate("crosscheck", f"data/recordings/{file}", doc)
        carrying += 1
    if carrying == 0:
        print("FAIL: no cross-check recording in data/recordings/ carries \"schema\" (crosscheck.schema.json checks nothing)")
        failures += 1
    if failures:
        return 1
    print(f"ok: {checked} documents valid under docs/schema/ (program-report, synth, prove, crosscheck, program-sample, program-partial, gpu-props); each schema refuses another version")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
