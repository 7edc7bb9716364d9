#!/usr/bin/env bash
# The main job: install what is missing, build (release), and run tilesim on its built-in layouts.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
[ -f build-release/build.ninja ] || meson setup build-release --buildtype=release --wrap-mode=nodownload >/dev/null
ninja -C build-release cli/tilesim >/dev/null
exec build-release/cli/tilesim examples
