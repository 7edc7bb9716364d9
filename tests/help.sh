#!/usr/bin/env bash
# tests/help.sh TILESIM TILESIM_ACCURACY [TILESIM_GPU]: every command and subcommand answers --help (issue 16).
#
# THE LAW. `tilesim --help`, `tilesim COMMAND --help` for every COMMAND the overview lists, `tilesim-accuracy
# --help`, and (where nvcc built it) `tilesim-gpu --help` and `tilesim-gpu COMMAND --help`: exit 0, the text on
# stdout and nothing on stderr, the text names its exit codes ("exit code") and spells every option with two
# dashes; and every option `tilesim run --help` lists is accepted by run copy or run gemm. Exit 1 naming each
# command that breaks it; 0 otherwise.
set -uo pipefail
tilesim=$1 accuracy=$2 gpu=${3:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tilesim-help.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
bad=0 checked=0
check() {  # check COMMAND...: the law for one help invocation
  local rc
  "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  checked=$((checked + 1))
  if [ "$rc" != 0 ] || [ -s "$tmp/err" ] || [ ! -s "$tmp/out" ] || ! grep -qi 'exit code' "$tmp/out"; then
    echo "FAIL: $* exited $rc, stdout $(wc -l <"$tmp/out") lines (exit codes named: $(grep -ci 'exit code' "$tmp/out")), stderr: $(head -c 200 "$tmp/err")"
    bad=1
  fi
  if grep -q -- '---[a-z]' "$tmp/out"; then  # an option is spelled as it is accepted: two dashes
    echo "FAIL: $* spells an option with more than two dashes: $(grep -m1 -- '---[a-z]' "$tmp/out")"
    bad=1
  fi
}
check "$tilesim" --help
commands=$("$tilesim" --help | sed -n 's/^  tilesim \([a-z][a-z-]*\).*/\1/p' | sort -u)
[ "$(echo "$commands" | wc -w)" -ge 9 ] || { echo "FAIL: tilesim --help lists only: $commands"; exit 1; }
for c in $commands; do check "$tilesim" "$c" --help; done
# Every option `tilesim run --help` lists (an indented line starting with --NAME) is one `tilesim run copy` or
# `tilesim run gemm` accepts: given without its value it is "needs a value" or runs, never "unknown option".
for o in $("$tilesim" run --help | sed -n 's/^  \(--[a-z][a-z0-9-]*\).*/\1/p' | sort -u); do
  if "$tilesim" run copy "$o" 2>&1 | grep -q "unknown option $o" && "$tilesim" run gemm "$o" 2>&1 | grep -q "unknown option $o"; then
    echo "FAIL: tilesim run --help lists $o, which neither run copy nor run gemm accepts"
    bad=1
  fi
  checked=$((checked + 1))
done
check "$accuracy" --help
if [ -n "$gpu" ]; then
  check "$gpu" --help
  for c in crosscheck counters-pass device; do check "$gpu" "$c" --help; done
fi
((bad == 0)) || exit 1
echo "ok: $checked help texts (tilesim:" $commands"${gpu:+; tilesim-gpu}; tilesim-accuracy): exit 0, stdout only, exit codes named"
