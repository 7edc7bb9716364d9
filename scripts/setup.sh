#!/usr/bin/env bash
# Installs the Debian 12 packages tilesim needs, only those that are missing; arguments name extra packages
# (setup_gpu.sh: hipcc). Run by run.sh, test.sh and setup_gpu.sh.
set -euo pipefail
packages=(meson ninja-build g++ clang pkg-config cmake libeigen3-dev doctest-dev librapidcheck-dev libbenchmark-dev librsvg2-bin "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -q >/dev/null
  "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi
