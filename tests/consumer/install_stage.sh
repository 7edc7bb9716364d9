# tests/consumer/install_stage.sh: sourced by run.sh and gpu/run.sh. Stages BUILD_DIR's install and checks its
# header closure; the caller defines fail MESSAGE [LOG] and $tmp.
#   stage_install BUILD      meson install --no-rebuild --destdir $tmp/stage; sets root, inc (…/include/tilesim), lib
#   check_include_closure WHAT DIR FIND_ARGS...
#                            every `#include "..."` of a header `find DIR FIND_ARGS` lists names an installed
#                            header: check_include_closure "gpu/ " "$inc/gpu" -name '*.hpp' -o -name '*.cuh'

stage_install() {
  meson install -C "$1" --no-rebuild --destdir "$tmp/stage" >"$tmp/install.log" 2>&1 || fail "meson install -C $1" "$tmp/install.log"
  local prefix libdir includedir
  read -r prefix libdir includedir < <(meson introspect "$1" --buildoptions | python3 -c '
import json, sys
o = {x["name"]: x["value"] for x in json.load(sys.stdin)}
print(o["prefix"], o["libdir"], o["includedir"])')
  root=$tmp/stage$prefix
  inc=$root/$includedir/tilesim lib=$root/$libdir
}

check_include_closure() {
  local what=$1 dir=$2 missing=0 header name
  shift 2
  while IFS= read -r header; do
    for name in $(grep -ho '^#include "[^"]*"' "$header" | sed 's/^#include "\(.*\)"$/\1/'); do
      [ -e "$inc/$name" ] || { echo "installed ${header#"$inc/"} includes $name, which is not installed"; missing=1; }
    done
  done < <(find "$dir" "$@")
  ((missing == 0)) || fail "the installed ${what}headers are not closed under #include"
  echo "ok: the install holds $(find "$dir" "$@" | wc -l) ${what}headers, closed under #include"
}
