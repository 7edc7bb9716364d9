#!/usr/bin/env bash
# The main job: install what is missing, build (release), and run tilesim on its built-in examples:
#   1. the built-in LDS layouts (tilesim examples)
#   2. the simulator: the copy program through each LDS layout on gfx942 and sm90 (tilesim run copy)
#   3. the sm90 bank model on the 46 patterns measured on an H200 (tilesim bank)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
[ -f build-release/build.ninja ] || meson setup build-release --buildtype=release --wrap-mode=nodownload >/dev/null
ninja -C build-release cli/tilesim >/dev/null
tilesim=build-release/cli/tilesim
"$tilesim" examples
for arch in gfx942 sm90; do
  for layout in row-major padded ck-xor cute-swizzle; do
    echo
    echo "== tilesim run copy --arch $arch --layout $layout"
    echo
    "$tilesim" run copy --arch "$arch" --layout "$layout"
  done
done
echo
echo "== tilesim bank --arch sm90 sim/calibration/h200-smem-known.patterns  (NAME WAVEFRONTS CYCLES)"
echo
"$tilesim" bank --arch sm90 sim/calibration/h200-smem-known.patterns
