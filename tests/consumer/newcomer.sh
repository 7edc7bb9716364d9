#!/usr/bin/env bash
# tests/consumer/newcomer.sh SOURCE_ROOT SANITIZE CXX...: README.md's newcomer's path, run as written (issue 32).
#
# THE LAW. The README.md blocks marked `<!-- newcomer: NAME -->` (NAMES below), pasted into one shell in order, take
# a fresh checkout to a program that runs:
#   install         from the checkout: configure a new build, build the libraries alone, install them to a prefix
#                   (`meson install --no-rebuild` with nothing else built: the commands were not built)
#   pkg-config      in the program's directory: compile my_program.cpp with pkg-config's flags and an rpath, run it
#   CMakeLists.txt  the program's CMakeLists.txt, written as the block shows it
#   cmake           configure, build and run it against the prefix
# my_program.cpp is tests/consumer/transpose.cpp; both programs, run as linked (LD_LIBRARY_PATH unset), must print
#   transpose n=64 pitch=33: correct, clean, lds wavefronts 256 (ideal 256)
# and exit 2 on bad input; the prefix holds no command (the libraries alone) and the build no tilesim binary; the
# programs name no libboost_context among their own dynamic dependencies (readelf -d), and the CMake one (the static
# tilesim::sim) no libtilesim either. A block missing from README.md fails the test; tests/readme_blocks.py fails a
# marked block whose NAME is not below.
#
# What differs from a newcomer's shell: HOME is a temporary directory (the blocks write only under it), the checkout
# is a tree of links to SOURCE_ROOT (without its build directories) so the new build lands in the temporary
# directory, CXX is the compiler of the build running the test, and `meson setup` gets -Doptimization=0
# -Ddebug=false appended (CI's time: about 40 s of 2 cores; what is installed is the same).
# Exit 77 (skipped) under a sanitizer build (the plain build runs it) or where cmake / pkg-config is missing; 1 with
# the failing step's log; 0 when the path holds.
set -uo pipefail
unset LD_LIBRARY_PATH  # meson test points it at the build tree; the programs here must find the install themselves
NAMES=(install pkg-config CMakeLists.txt cmake)
source=$(cd "$1" && pwd) sanitize=${2:-none}
shift 2
cxx=("$@")
if [ "$sanitize" != none ]; then echo "skipped: b_sanitize=$sanitize (the plain build runs the newcomer's path)"; exit 77; fi
for tool in cmake pkg-config c++ ninja meson readelf; do
  command -v "$tool" >/dev/null || { echo "skipped: $tool is not installed (scripts/setup.sh installs it)"; exit 77; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tilesim-newcomer.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
expected='transpose n=64 pitch=33: correct, clean, lds wavefronts 256 (ideal 256)'
fail() { echo "FAIL: $1"; [ -f "${2:-}" ] && tail -n 60 "$2"; exit 1; }
block() {  # block NAME: the body of README.md's fenced block right after the line <!-- newcomer: NAME -->
  awk -v marker="<!-- newcomer: $1 -->" '
    $0 == marker { found = 1; next }
    found == 1 && /^```/ { found = 2; next }
    found == 1 && NF { exit }
    found == 2 && /^```$/ { exit }
    found == 2 { print }' "$source/README.md"
}

# The checkout: links to every top-level entry but build directories (a meson-private/ inside) and .git.
checkout=$tmp/checkout project=$tmp/project
mkdir -p "$checkout" "$project" "$tmp/home"
for e in "$source"/* "$source"/.[!.]*; do
  [ -e "$e" ] || continue
  [ -d "$e/meson-private" ] || [ "$(basename "$e")" = .git ] || ln -s "$e" "$checkout/$(basename "$e")"
done
cp "$source/tests/consumer/transpose.cpp" "$project/my_program.cpp"

# One shell, the blocks in order, as a newcomer pastes them.
declare -A body
for name in "${NAMES[@]}"; do
  body[$name]=$(block "$name")
  [ -n "${body[$name]}" ] || fail "README.md has no fenced block right after a line <!-- newcomer: $name -->"
done
script=$tmp/newcomer.sh
{
  echo 'set -e'
  echo 'meson() { if [ "$1" = setup ]; then command meson "$@" -Doptimization=0 -Ddebug=false; else command meson "$@"; fi; }'
  echo "cd '$checkout'"
  printf '%s\n' "${body[install]}"
  echo "cd '$project'"
  printf '%s\n' "${body[pkg-config]}"
  printf 'cat > CMakeLists.txt <<'"'"'TILESIM_README_EOF'"'"'\n%s\nTILESIM_README_EOF\n' "${body[CMakeLists.txt]}"
  printf '%s\n' "${body[cmake]}"
  echo "echo \"\$prefix\" > '$tmp/prefix'"
} >"$script"
HOME=$tmp/home CXX="${cxx[*]}" bash "$script" >"$tmp/run.log" 2>&1 || fail "README.md's newcomer blocks (as run: $script)" "$tmp/run.log"
prefix=$(cat "$tmp/prefix")
[ -n "$prefix" ] && [ -d "$prefix" ] || fail "the install block names no prefix (\$prefix) that exists" "$tmp/run.log"
echo "ok: README.md's newcomer blocks ran ($(grep -c "$expected" "$tmp/run.log") programs printed the expected line; prefix ${prefix#"$tmp/"})"

check_run() {  # check_run WHAT BINARY: the program's output is the expected line, and bad input exits 2
  local out rc
  [ -x "$2" ] || fail "$1: $2 was not built" "$tmp/run.log"
  out=$("$2" 64 33) || fail "$1: $2 64 33 exited $?"
  [ "$out" = "$expected" ] || fail "$1: printed '$out', expected '$expected'"
  "$2" 65 33 >/dev/null 2>&1; rc=$?
  [ "$rc" = 2 ] || fail "$1: $2 65 33 (n not a multiple of 32) exited $rc, expected 2"
  echo "ok: $1: $out"
}
check_needed() {  # check_needed WHAT BINARY PATTERN...: no NEEDED entry of BINARY matches a glob PATTERN
  local what=$1 binary=$2 n lib pattern
  shift 2
  n=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  [ -n "$n" ] || fail "$what: readelf -d $binary lists no NEEDED entry"
  for lib in $n; do
    for pattern in "$@"; do
      # shellcheck disable=SC2053  # a glob on purpose
      [[ $lib == $pattern ]] && fail "$what: $binary needs $lib itself (NEEDED: $n)"
    done
  done
  echo "ok: $what: NEEDED $n"
}
built=$(find "$checkout" -mindepth 1 -maxdepth 1 -type d ! -type l)
[ -n "$built" ] || fail "the install block made no build directory in the checkout" "$tmp/run.log"
for b in $built; do
  [ ! -e "$b/cli/tilesim" ] || fail "the install block built the commands (${b#"$checkout/"}/cli/tilesim): not the libraries alone"
done
[ ! -e "$prefix/bin" ] || fail "the install block installed commands: $(ls "$prefix/bin" | tr '\n' ' ')"
for f in lib/libtilesim_sim.so.0 lib/libtilesim_sim.a lib/pkgconfig/tilesim.pc lib/cmake/tilesim/tilesimConfig.cmake \
         lib/cmake/tilesim/tilesimConfigVersion.cmake include/tilesim/spec/spec.hpp; do
  [ -e "$prefix/$f" ] || fail "the prefix lacks $f" "$tmp/run.log"
done
echo "ok: the libraries alone installed, after building only them ($(find "$prefix" -type f | wc -l) files, no command)"
check_run "pkg-config, as README.md links it" "$project/my_program"
check_needed "pkg-config, as README.md links it" "$project/my_program" 'libboost_context*'
cmake_program=$(find "$project" -path "$project/build/*" -type f -name my_program -perm -u+x | head -n 1)
check_run "CMake, as README.md builds it" "${cmake_program:-$project/build/my_program}"
check_needed "CMake, as README.md builds it (tilesim::sim)" "${cmake_program:-$project/build/my_program}" 'libboost_context*' 'libtilesim*'
