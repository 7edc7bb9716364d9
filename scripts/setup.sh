#!/usr/bin/env bash
# Installs the Debian 12 packages tilesim needs, only those that are missing; arguments name extra packages.
# Run by run.sh, test.sh and setup_gpu.sh; writes nothing on stdout (tests/setup_stdout.sh). hipcc (Debian's
# HIP 5.2 on clang 15, about 66 MB) is among them: with it the test command compiles every program as AMD
# kernels for gfx90a and gfx940 and checks their assembly (gpu/kernels/amd: 0 bytes of scratch, LDS widths as the
# simulator prices them; about 40 s of one core).
set -euo pipefail
packages=(meson ninja-build g++ clang pkg-config cmake libeigen3-dev doctest-dev librapidcheck-dev libbenchmark-dev libboost-context-dev librsvg2-bin python3-jsonschema hipcc
  pybind11-dev python3-dev python3-numpy python3-pytest "$@")  # the last four: the Python module (python/, -Dpython)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2  # stderr: run.sh's stdout is the main job's table alone
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -q >/dev/null
  "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi
