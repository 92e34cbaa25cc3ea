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
# The module is committed gzipped (treesitter.wasm.gz, gzip -9 -n: no name,
# no time): its 27 MB of parse tables shrink to a tenth.
# Usage: scripts/treesitter/build.sh [output.wasm.gz]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/engine/syntax/treesitter.wasm.gz}
GO=${GO:-go}
CC=${CC:-clang-16}
JOBS=${JOBS:-2}

# module version zip-sha256
modules=(
  "github.com/tree-sitter/go-tree-sitter v0.25.0 a2be3a1732377f427a97b3640739383585d46e14dc92637bfbd3d89dd2a9e6a7"
  "github.com/tree-sitter/tree-sitter-python v0.25.0 12294632b34761a0f4ff84cf09acec415436cf366a4f1a3d3643eac7c86dc414"
  "github.com/tree-sitter/tree-sitter-javascript v0.25.0 399094f06823a86cc85db46c85e159fb7c118f078efefc88c262e7afc374b0cb"
  "github.com/tree-sitter/tree-sitter-typescript v0.23.2 3adc552bf3d7ae45b8d25bc4eded0793e919f5c31bde8611882698898b05f6b7"
  "github.com/tree-sitter/tree-sitter-java v0.23.5 a0c59108e777e22bf58d953b5b761aa7bc44782eb55387c50aeb1efb0cb9ac58"
  "github.com/tree-sitter-grammars/tree-sitter-kotlin v1.1.0 ab176c6cc891f9aa9009ba12b97fd11ddc3cbcb60aa52504669b6c824ebc3288"
  "github.com/tree-sitter/tree-sitter-c v0.24.1 34f730d84bb77d6288a86fa7c9870b7f16733a230187a3297440cc2518421269"
  "github.com/tree-sitter/tree-sitter-cpp v0.23.4 dfd12bbb01ddbeaad0b0d2e3b3af19d1cb20dc3a2bde99ad6087c60ea165f94d"
  "github.com/tree-sitter/tree-sitter-c-sharp v0.23.5 1f68b07da4eb2d18541ab63d787e2094749a1b0af97dec77fb253ea85ad97db3"
  "github.com/tree-sitter/tree-sitter-rust v0.24.2 2839aa3c9fca63919293fed65d5c7f53eb7d195888e80def033db6991d1c1e1d"
  "github.com/tree-sitter/tree-sitter-ruby v0.23.1 09c501b7ee83df6b66eba5d37ae32c7f7b466cb7f71a8172832f2fa4134b5410"
  "github.com/tree-sitter/tree-sitter-php v0.24.2 ab5d9949283086a710809482b59aafdf6b160bd0f2e922ed2e081609f9c73ce4"
  "github.com/tree-sitter/tree-sitter-scala v0.24.0 8df4438c7ea3bda3d6689727f132c226a1d37f53e00ec38eca677ee8dec5cfbf"
  "github.com/tree-sitter/tree-sitter-bash v0.25.1 9a5af578c5bd46ed12357565e277edf9b01c30b3c0f07e7936e57242a50b7f28"
  "github.com/tree-sitter-grammars/tree-sitter-lua v0.5.0 db15f21fb7ce74227ff3376ddf11c41ab06c71189ff1c2f74ccb3733662ba638"
  "github.com/elixir-lang/tree-sitter-elixir v0.3.5 1d0d84b77e8bc233270cd0df87e7a6e9e41d2001bbe26dd94dca7e6c409813c5"
  "github.com/tree-sitter/tree-sitter-go v0.25.0 e4501d10db1aee5f0b15354f4ae31296d8d8a93282a85d12302e6c682944438a"
)

# language module source-dir C-symbol (the order is the module's language index)
langs=(
  "python github.com/tree-sitter/tree-sitter-python src tree_sitter_python"
  "javascript github.com/tree-sitter/tree-sitter-javascript src tree_sitter_javascript"
  "typescript github.com/tree-sitter/tree-sitter-typescript typescript/src tree_sitter_typescript"
  "tsx github.com/tree-sitter/tree-sitter-typescript tsx/src tree_sitter_tsx"
  "java github.com/tree-sitter/tree-sitter-java src tree_sitter_java"
  "kotlin github.com/tree-sitter-grammars/tree-sitter-kotlin src tree_sitter_kotlin"
  "c github.com/tree-sitter/tree-sitter-c src tree_sitter_c"
  "cpp github.com/tree-sitter/tree-sitter-cpp src tree_sitter_cpp"
  "csharp github.com/tree-sitter/tree-sitter-c-sharp src tree_sitter_c_sharp"
  "rust github.com/tree-sitter/tree-sitter-rust src tree_sitter_rust"
  "ruby github.com/tree-sitter/tree-sitter-ruby src tree_sitter_ruby"
  "php github.com/tree-sitter/tree-sitter-php php/src tree_sitter_php"
  "scala github.com/tree-sitter/tree-sitter-scala src tree_sitter_scala"
  "bash github.com/tree-sitter/tree-sitter-bash src tree_sitter_bash"
  "lua github.com/tree-sitter-grammars/tree-sitter-lua src tree_sitter_lua"
  "elixir github.com/elixir-lang/tree-sitter-elixir src tree_sitter_elixir"
  "go github.com/tree-sitter/tree-sitter-go src tree_sitter_go"
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

# compile list: "output source hashed-dir include-dir...". An object is
# cached under $cache by the sha256 of the compiler's version, the flags and
# every file of the hashed directory (the grammar's module, whose sources
# include one another), so a rebuild after a change to glue.c recompiles
# only glue.c; a cached object is the very bytes a compile gives.
cache=${TS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/autorag/tsbuild}
mkdir -p "$cache" "$work/glue"
cp "$here/glue.c" "$here/glue.h" "$here/rules.c" "$work/glue/"
units=("rt $rt/src/lib.c $rt $rt/src $rt/include"
  "glue $work/glue/glue.c $work/glue $rt/include"
  "rules $work/glue/rules.c $work/glue $rt/include"
  "langs $work/langs.c $work/langs.c $rt/include")
for l in "${langs[@]}"; do
  set -- $l
  src=$work/m/$2/$3
  units+=("$1-parser $src/parser.c $work/m/$2 $src")
  [ -f "$src/scanner.c" ] && units+=("$1-scanner $src/scanner.c $work/m/$2 $src")
done

# compile NAME SOURCE HASHED INCLUDE-DIR...: one object into $work/o (run by xargs).
compile() {
  local name=$1 src=$2 hashed=$3 inc=() key
  shift 3
  for d in "$@"; do inc+=(-I "$d"); done
  key=$({ echo "$CCVERSION ${FLAGS//$work/WORK} $name"; find "$hashed" -type f | LC_ALL=C sort | xargs cat; } | sha256sum | cut -c1-64)
  if [ -f "$cache/$key.o" ]; then
    cp "$cache/$key.o" "$work/o/$name.o"
    return
  fi
  # shellcheck disable=SC2086
  "$CC" $FLAGS "${inc[@]}" -c "$src" -o "$work/o/$name.o"
  cp "$work/o/$name.o" "$cache/$key.o.tmp" && mv "$cache/$key.o.tmp" "$cache/$key.o"
}
export -f compile
CCVERSION=$("$CC" --version | head -1)
FLAGS="${flags[*]}"
export work CC CCVERSION FLAGS cache

printf '%s\n' "${units[@]}" | nice xargs -P "$JOBS" -L 1 bash -c 'compile "$@"' _

objs=()
for u in "${units[@]}"; do
  set -- $u
  objs+=("$work/o/$1.o")
  printf '%-20s %10d bytes of object\n' "$1" "$(stat -c %s "$work/o/$1.o")"
done

# A reactor (no main): the host calls the exports. 1 MiB of stack for deep trees.
"$CC" --target=wasm32-wasi -mexec-model=reactor -fuse-ld=lld \
  -Wl,--no-entry -Wl,--strip-all -Wl,-z,stack-size=1048576 -Wl,--export=_initialize \
  -o "$work/treesitter.wasm" "${objs[@]}"

# LICENSES: the licence of every input, as its zip ships it.
lic=$(dirname "$out")/LICENSES
{
  echo "Licences of the sources compiled into treesitter.wasm (scripts/treesitter/build.sh)."
  echo "glue.c, glue.h and rules.c are autorag's own. The runtime (src/, include/ of go-tree-sitter) is a copy of"
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

gzip -9 -n -c "$work/treesitter.wasm" >"$out"
sha=$(sha256sum "$work/treesitter.wasm" | cut -d' ' -f1)
echo "$sha  treesitter.wasm" >"$(dirname "$out")/treesitter.sha256"
echo "built $out: $(stat -c %s "$work/treesitter.wasm") bytes of module, $(stat -c %s "$out") gzipped, module sha256 $sha"
