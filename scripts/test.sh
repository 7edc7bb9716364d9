#!/usr/bin/env bash
# Install what is missing, build, and run every suite: unit + props (g++), unit + props under ASan+UBSan,
# unit under clang. GPU code (gpu/: nvcc >= 12, hipcc) is built and checked in the first build when its
# compiler is installed (scripts/setup_gpu.sh). Ends with one line "N passed, N failed" summed over all runs.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 2
jobs=$(nproc)
status=0
builds=()
multiplier=1  # meson test's --timeout-multiplier: each test() states its -O1 budget; the sanitizer build gets 3x
run_suite() {  # run_suite [--needed] DIR SUITES...: build everything (or, --needed, what the suites' tests need), test
  local needed=0
  if [ "$1" = --needed ]; then needed=1; shift; fi
  local dir=$1; shift
  local args=() targets=()
  for s in "$@"; do args+=(--suite "$s"); done
  echo "== $dir: ${*}"
  if ((needed)); then
    mapfile -t targets < <(python3 scripts/suite_targets.py "$dir" "$@")  # none listed: ninja builds everything
  fi
  ninja -C "$dir" -j "$jobs" "${targets[@]}" >"$dir.build.log" 2>&1 || { cat "$dir.build.log"; echo "build of $dir failed"; status=1; return; }
  meson test -C "$dir" --no-rebuild --print-errorlogs --timeout-multiplier "$multiplier" "${args[@]}" || status=1
  builds+=("$dir")
}
# The ASan+UBSan build leaves out the Python module (-Dpython=disabled): the interpreter that would load it is not
# instrumented (it would need LD_PRELOAD of the sanitizer runtimes); the g++ and clang builds run its pytest suite.
# Every build here is for testing: -O1 with line tables only (-g1) compiles this template-heavy code about twice
# as fast as the default -O2 -g, keeps assertions, and still gives sanitizer reports file:line.
test_flags=(-Doptimization=1 -Ddebug=false -Dcpp_args=-g1)
[ -f build/build.ninja ] || meson setup build --wrap-mode=nodownload "${test_flags[@]}" >/dev/null || exit 2
run_suite build unit props
[ -f build-asan/build.ninja ] || meson setup build-asan --wrap-mode=nodownload -Db_sanitize=address,undefined \
  -Db_lundef=false -Dbench=disabled -Dgpu=disabled -Damd=disabled -Dpython=disabled -Doptimization=1 -Ddebug=false \
  "-Dcpp_args=-g1 -fno-sanitize-recover=all" >/dev/null || exit 2
multiplier=3 run_suite build-asan unit props
[ -f build-clang/build.ninja ] || CXX=clang++ meson setup build-clang --wrap-mode=nodownload -Dbench=disabled -Dgpu=disabled -Damd=disabled \
  "${test_flags[@]}" >/dev/null || exit 2
run_suite --needed build-clang unit  # the clang build checks that everything tested compiles and passes
python3 scripts/summarize_tests.py "${builds[@]}" || status=1
exit $status
