#!/usr/bin/env bash
# The main job: install what is missing, build (release), and run every reference program of examples/ in the
# simulator (tilesim examples): one summary table on stdout, a progress line on stderr, and each variant's
# bank heat map in build-release/heatmaps/. Exit code: tilesim's (0 every result check passed, 1 one failed).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >&2  # set-up and build messages go to stderr: stdout is the table alone
[ -f build-release/build.ninja ] || meson setup build-release --buildtype=release --wrap-mode=nodownload \
  -Dtests=disabled -Dbench=disabled -Dgpu=disabled -Damd=disabled >/dev/null
ninja -C build-release cli/tilesim >/dev/null
exec build-release/cli/tilesim examples --svg-dir build-release/heatmaps
