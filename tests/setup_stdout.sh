#!/usr/bin/env bash
# tests/setup_stdout.sh SOURCE_ROOT: scripts/setup.sh writes nothing on stdout (issue 16).
#
# THE LAW. `bash scripts/run.sh`'s stdout is the main job's table and nothing else, so setup.sh, which it runs
# first, says what it installs on stderr. Checked with stand-ins on PATH: dpkg-query reports every package
# missing, and apt-get / sudo record their arguments and print noise on stdout (as apt-get does); nothing is
# installed. Exit 0 when stdout is empty and stderr names the packages being installed; 1 otherwise.
set -uo pipefail
source=$(cd "$1" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tilesim-setup.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
printf '#!/bin/sh\nexit 1\n' >"$tmp/bin/dpkg-query"
printf '#!/bin/sh\necho "apt-get $*" >>"%s/apt.log"\necho "Reading package lists... Done"\n' "$tmp" >"$tmp/bin/apt-get"
printf '#!/bin/sh\nexec "$@"\n' >"$tmp/bin/sudo"
chmod +x "$tmp/bin/"*
PATH="$tmp/bin:$PATH" bash "$source/scripts/setup.sh" >"$tmp/out" 2>"$tmp/err" || { echo "FAIL: setup.sh exited $?"; cat "$tmp/err"; exit 1; }
if [ -s "$tmp/out" ]; then echo "FAIL: setup.sh wrote on stdout:"; cat "$tmp/out"; exit 1; fi
grep -q '^setup: installing .*cmake' "$tmp/err" || { echo "FAIL: stderr does not name the packages:"; cat "$tmp/err"; exit 1; }
grep -q '^apt-get install' "$tmp/apt.log" || { echo "FAIL: apt-get install was not called"; exit 1; }
echo "ok: stdout empty; stderr: $(head -c 120 "$tmp/err")"
