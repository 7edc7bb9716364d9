#!/usr/bin/env bash
# tests/consumer/run.sh BUILD_DIR SOURCE_ROOT SANITIZE: tilesim as a user's project consumes it (issue 16).
#
# THE LAW. What `meson install` puts in a prefix is enough to build and run a user's tile program, three ways:
#   1. CMake: find_package(tilesim) in tests/consumer/CMakeLists.txt, linking tilesim::sim (static) and
#      tilesim::sim_shared;
#   2. pkg-config: c++ $(pkg-config --cflags --libs tilesim) -Wl,-rpath,$(pkg-config --variable=libdir tilesim),
#      against the shared library, as README.md says;
#   3. Meson: tests/consumer/meson.build with tilesim as a subproject (dependency('tilesim')), no install.
# Each build's tests/consumer/transpose must print, run as linked (LD_LIBRARY_PATH unset: no help finding a library)
#   transpose n=64 pitch=33: correct, clean, lds wavefronts 256 (ideal 256)
# and Boost.Context stays private: no installed program names libboost_context among its own dynamic dependencies
# (readelf -d NEEDED; the shared libtilesim_sim.so.0 carries it), and the tilesim::sim program needs no tilesim
# shared library either.
# and the install must hold its own include closure: every `#include "spec/..."` / `"sim/..."` in an installed
# header names an installed header. BUILD_DIR is installed as built (`meson install --no-rebuild --destdir`,
# into a temporary directory; nothing is rebuilt); the subproject build compiles only the simulator library
# and the program (-O0; about 20 s of 4 cores).
#
# Exit 77 (skipped) under a sanitizer build (SANITIZE != none: the installed library then needs the
# sanitizer runtime, which a plain consumer does not link) or where cmake / pkg-config is missing
# (scripts/setup.sh installs both); 1 with the failing step's log; 0 when all three pass.
set -uo pipefail
unset LD_LIBRARY_PATH  # meson test points it at the build tree; the programs here must use the install
build=$(cd "$1" && pwd) source=$(cd "$2" && pwd) sanitize=${3:-none}
if [ "$sanitize" != none ]; then echo "skipped: b_sanitize=$sanitize (the consumer links no sanitizer runtime)"; exit 77; fi
for tool in cmake pkg-config c++ ninja readelf; do
  command -v "$tool" >/dev/null || { echo "skipped: $tool is not installed (scripts/setup.sh installs it)"; exit 77; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tilesim-consumer.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
expected='transpose n=64 pitch=33: correct, clean, lds wavefronts 256 (ideal 256)'
fail() { echo "FAIL: $1"; [ -f "${2:-}" ] && tail -n 40 "$2"; exit 1; }
check_run() {  # check_run WHAT BINARY: the program's output is the expected line, and bad input exits 2
  local out rc
  out=$("$2" 64 33) || fail "$1: $2 64 33 exited $?"
  [ "$out" = "$expected" ] || fail "$1: printed '$out', expected '$expected'"
  "$2" 65 33 >/dev/null 2>&1; rc=$?
  [ "$rc" = 2 ] || fail "$1: $2 65 33 (n not a multiple of 32) exited $rc, expected 2"
  echo "ok: $1: $out"
}
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' '; }  # the binary's own dependencies
check_needed() {  # check_needed WHAT BINARY PATTERN...: no NEEDED entry of BINARY matches a glob PATTERN
  local what=$1 binary=$2 n lib pattern
  shift 2
  n=$(needed "$binary")
  [ -n "$n" ] || fail "$what: readelf -d $binary lists no NEEDED entry"
  for lib in $n; do
    for pattern in "$@"; do
      # shellcheck disable=SC2053  # a glob on purpose
      [[ $lib == $pattern ]] && fail "$what: $binary needs $lib itself (NEEDED: $n)"
    done
  done
  echo "ok: $what: NEEDED $n"
}

# The install, staged under $tmp/stage; its prefix and directories as this build configured them.
. "$(dirname "${BASH_SOURCE[0]}")/install_stage.sh"
stage_install "$build"
for f in "$inc/spec/spec.hpp" "$inc/sim/engine/engine.hpp" "$lib/libtilesim_sim.a" "$lib/libtilesim_sim.so" \
         "$lib/pkgconfig/tilesim.pc" "$lib/cmake/tilesim/tilesimConfig.cmake" "$root/bin/tilesim"; do
  [ -e "$f" ] || fail "the install lacks ${f#"$tmp/stage"}" "$tmp/install.log"
done
check_include_closure "" "$inc" -name '*.hpp'

# 1. CMake against the install.
cmake -S "$source/tests/consumer" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$root" >"$tmp/cmake.log" 2>&1 \
  && cmake --build "$tmp/cmake" >>"$tmp/cmake.log" 2>&1 || fail "CMake build of tests/consumer" "$tmp/cmake.log"
check_run "CMake find_package(tilesim), tilesim::sim" "$tmp/cmake/transpose"
check_needed "CMake tilesim::sim (static)" "$tmp/cmake/transpose" 'libboost_context*' 'libtilesim*'
check_run "CMake find_package(tilesim), tilesim::sim_shared" "$tmp/cmake/transpose_shared"
check_needed "CMake tilesim::sim_shared" "$tmp/cmake/transpose_shared" 'libboost_context*'

# 2. pkg-config against the install, README.md's line (prefix redefined to the staging directory), its rpath the
# .pc's libdir.
pc() { PKG_CONFIG_PATH="$lib/pkgconfig" pkg-config --define-variable=prefix="$root" "$@"; }
flags=$(pc --cflags --libs tilesim) && libdir=$(pc --variable=libdir tilesim) || fail "pkg-config --cflags --libs tilesim"
[ "$libdir" -ef "$lib" ] || fail "pkg-config --variable=libdir tilesim is $libdir, not the install's $lib"
# shellcheck disable=SC2086  # the flags are words
c++ -std=c++20 "$source/tests/consumer/transpose.cpp" $flags -Wl,-rpath,"$libdir" -o "$tmp/transpose-pc" >"$tmp/pc.log" 2>&1 \
  || fail "c++ transpose.cpp $flags -Wl,-rpath,$libdir" "$tmp/pc.log"
libs=$(ldd "$tmp/transpose-pc")  # whole, not piped into grep -q (pipefail would see ldd's SIGPIPE)
[[ $libs == *"$lib/libtilesim_sim.so.0"* ]] || fail "transpose-pc does not load the installed libtilesim_sim.so.0: $libs"
check_run "pkg-config tilesim ($flags -Wl,-rpath,$libdir), shared library" "$tmp/transpose-pc"
check_needed "pkg-config tilesim" "$tmp/transpose-pc" 'libboost_context*'

# 3. Meson, tilesim as a subproject (this source tree, linked under the consumer's subprojects/).
mkdir -p "$tmp/meson/subprojects"
cp "$source/tests/consumer/meson.build" "$source/tests/consumer/transpose.cpp" "$tmp/meson/"
ln -s "$source" "$tmp/meson/subprojects/tilesim"
meson setup "$tmp/meson/build" "$tmp/meson" --wrap-mode=nodownload --force-fallback-for=tilesim -Doptimization=0 \
  >"$tmp/meson.log" 2>&1 && ninja -C "$tmp/meson/build" transpose >>"$tmp/meson.log" 2>&1 \
  || fail "Meson build of tests/consumer with tilesim as a subproject" "$tmp/meson.log"
check_run "Meson subproject dependency('tilesim')" "$tmp/meson/build/transpose"
