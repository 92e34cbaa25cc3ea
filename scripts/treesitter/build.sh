#!/usr/bin/env bash
# build.sh: builds engine/syntax/treesitter.wasm, one standalone wasm32-wasi
# module holding the tree-sitter runtime, the grammars below and glue.c, from
# the Go module proxy's zips of their C sources, each checked against its
# sha256. The same inputs give the same bytes (no paths, dates or debug info
# go into the module); the module's sha256 goes to engine/syntax/treesitter.sha256
# and the inputs' licences to engine/syntax/LICENSES.
#
# Needs: go, clang-16, lld-16, libclang-rt-16-dev-wasm32, wasi-libc, unzip
# (Debian: apt-get install -y clang-16 lld-16 libclang-rt-16-dev-wasm32 wasi-libc unzip).
# Usage: scripts/treesitter/build.sh [output.wasm]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/engine/syntax/treesitter.wasm}
GO=${GO:-go}
CC=${CC:-clang-16}
JOBS=${JOBS:-2}

# module version zip-sha256
modules=(
  "github.com/tree-sitter/go-tree-sitter v0.25.0 a2be3a1732377f427a97b3640739383585d46e14dc92637bfbd3d89dd2a9e6a7"
  "github.com/tree-sitter/tree-sitter-python v0.25.0 12294632b34761a0f4ff84cf09acec415436cf366a4f1a3d3643eac7c86dc414"
  "github.com/tree-sitter/tree-sitter-javascript v0.25.0 399094f06823a86cc85db46c85e159fb7c118f078efefc88c262e7afc374b0cb"
  "github.com/tree-sitter/tree-sitter-rust v0.24.2 2839aa3c9fca63919293fed65d5c7f53eb7d195888e80def033db6991d1c1e1d"
)

# language module source-dir C-symbol (the order is the module's language index)
langs=(
  "python github.com/tree-sitter/tree-sitter-python src tree_sitter_python"
  "javascript github.com/tree-sitter/tree-sitter-javascript src tree_sitter_javascript"
  "rust github.com/tree-sitter/tree-sitter-rust src tree_sitter_rust"
)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# fetch MODULE VERSION SHA256: unzips the module's zip, checked, into $work/m/MODULE.
fetch() {
  local mod=$1 ver=$2 want=$3 zip got
  zip=$("$GO" mod download -json "$mod@$ver" | sed -n 's/^[[:space:]]*"Zip": "\(.*\)",$/\1/p')
  [ -n "$zip" ] || { echo "build.sh: go mod download $mod@$ver failed" >&2; exit 1; }
  got=$(sha256sum "$zip" | cut -d' ' -f1)
  if [ "$got" != "$want" ]; then
    echo "build.sh: $mod@$ver: zip sha256 $got, want $want" >&2
    exit 1
  fi
  mkdir -p "$work/z"
  unzip -q -o "$zip" -d "$work/z"
  mkdir -p "$(dirname "$work/m/$mod")"
  mv "$work/z/$mod@$ver" "$work/m/$mod"
}

for m in "${modules[@]}"; do
  # shellcheck disable=SC2086
  fetch $m
done

rt=$work/m/github.com/tree-sitter/go-tree-sitter
mkdir -p "$work/o"

# langs.c: the table glue.c reads.
{
  echo '#include <stdint.h>'
  echo '#include "tree_sitter/api.h"'
  echo 'typedef struct { const char *name; const TSLanguage *(*language)(void); } Lang;'
  for l in "${langs[@]}"; do
    set -- $l
    echo "extern const TSLanguage *$4(void);"
  done
  echo 'const Lang langs[] = {'
  for l in "${langs[@]}"; do
    set -- $l
    echo "  {\"$1\", $4},"
  done
  echo '};'
  echo "const int32_t nlangs = ${#langs[@]};"
} >"$work/langs.c"

# Every compile: optimised, no asserts, no debug info, paths mapped away.
flags=(--target=wasm32-wasi -O2 -DNDEBUG -g0 -ffile-prefix-map="$work"=/ts -fno-ident
  -DHAVE_ENDIAN_H -w)

# compile list: "output source include-dir..."
units=("rt $rt/src/lib.c $rt/src $rt/include"
  "glue $here/glue.c $rt/include"
  "langs $work/langs.c $rt/include")
for l in "${langs[@]}"; do
  set -- $l
  src=$work/m/$2/$3
  units+=("$1-parser $src/parser.c $src")
  [ -f "$src/scanner.c" ] && units+=("$1-scanner $src/scanner.c $src")
done

# compile NAME SOURCE INCLUDE-DIR...: one object into $work/o (run by xargs).
compile() {
  local name=$1 src=$2 inc=()
  shift 2
  for d in "$@"; do inc+=(-I "$d"); done
  # shellcheck disable=SC2086
  "$CC" $FLAGS "${inc[@]}" -c "$src" -o "$work/o/$name.o"
}
export -f compile
export work CC
FLAGS="${flags[*]}"
export FLAGS

printf '%s\n' "${units[@]}" | nice xargs -P "$JOBS" -L 1 bash -c 'compile "$@"' _

objs=()
for u in "${units[@]}"; do
  set -- $u
  objs+=("$work/o/$1.o")
done

# A reactor (no main): the host calls the exports. 1 MiB of stack for deep trees.
"$CC" --target=wasm32-wasi -mexec-model=reactor -fuse-ld=lld \
  -Wl,--no-entry -Wl,--strip-all -Wl,-z,stack-size=1048576 -Wl,--export=_initialize \
  -o "$work/treesitter.wasm" "${objs[@]}"

# LICENSES: the licence of every input, as its zip ships it.
lic=$(dirname "$out")/LICENSES
{
  echo "Licences of the sources compiled into treesitter.wasm (scripts/treesitter/build.sh)."
  echo "glue.c is autorag's own. The runtime (src/, include/ of go-tree-sitter) is a copy of"
  echo "tree-sitter/tree-sitter's lib/, whose licence go-tree-sitter's zip does not ship:"
  printf '\n==== github.com/tree-sitter/tree-sitter lib (the C runtime): LICENSE ====\n\n'
  cat "$here/LICENSE.tree-sitter"
  for m in "${modules[@]}"; do
    set -- $m
    for f in "$work/m/$1"/LICENSE*; do
      printf '\n==== %s %s: %s ====\n\n' "$1" "$2" "$(basename "$f")"
      cat "$f"
    done
  done
} >"$lic"

cp "$work/treesitter.wasm" "$out"
sha=$(sha256sum "$out" | cut -d' ' -f1)
echo "$sha  treesitter.wasm" >"$(dirname "$out")/treesitter.sha256"
echo "built $out: $(stat -c %s "$out") bytes, sha256 $sha"
