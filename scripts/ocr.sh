#!/usr/bin/env bash
# make ocr: makes tesseract (Debian's tesseract-ocr and tesseract-ocr-eng,
# 5.3.0 on bookworm) available to the OCR of scanned PDFs and to its tests.
#
#   - tesseract on PATH with its English data: nothing to do;
#   - root: apt-get install (as CI, which runs as root);
#   - anyone else (or --user): the packages that are not installed are
#     fetched with `apt-get download` and unpacked with `dpkg-deb -x` into
#     the user cache, $XDG_CACHE_HOME/autorag/tesseract (default
#     ~/.cache), beside a script `tesseract` there that runs the unpacked
#     program with LD_LIBRARY_PATH and TESSDATA_PREFIX set. The tests find
#     that script (internal/ocrtest); a user points the setting ocr_command
#     at it.
#
# Idempotent: a working copy is left as it is.
set -euo pipefail

user=0
[ "${1:-}" = --user ] && user=1
cache=${XDG_CACHE_HOME:-$HOME/.cache}/autorag/tesseract
wrapper=$cache/tesseract

has_eng() { "$1" --list-langs 2>/dev/null | grep -qx eng; }

if [ $user = 0 ] && command -v tesseract >/dev/null && has_eng tesseract; then
  echo "ocr: $(command -v tesseract) ($(tesseract --version 2>&1 | head -n 1))"
  exit 0
fi
if [ $user = 0 ] && [ "$(id -u)" = 0 ]; then
  echo "ocr: apt-get install tesseract-ocr tesseract-ocr-eng"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends tesseract-ocr tesseract-ocr-eng >/dev/null
  has_eng tesseract || { echo "ocr: tesseract installed but lists no eng data" >&2; exit 1; }
  echo "ocr: $(command -v tesseract) ($(tesseract --version 2>&1 | head -n 1))"
  exit 0
fi
if [ -x "$wrapper" ] && has_eng "$wrapper"; then
  echo "ocr: $wrapper ($("$wrapper" --version 2>&1 | head -n 1))"
  exit 0
fi

# What apt would install here (a simulation, which needs no root).
need=()
while read -r p; do need+=("$p"); done < <(apt-get -s -qq install --no-install-recommends \
  tesseract-ocr tesseract-ocr-eng 2>/dev/null | awk '/^Inst /{print $2}')
# The program and its data are needed even where the package is installed.
for p in tesseract-ocr tesseract-ocr-eng libtesseract5 liblept5; do
  [[ " ${need[*]} " == *" $p "* ]] || need+=("$p")
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "ocr: apt-get download ${need[*]}"
(cd "$tmp" && apt-get download -qq "${need[@]}" >/dev/null) || {
  echo "ocr: apt-get download failed (are the package lists there? root runs apt-get update)" >&2
  exit 1
}
rm -rf "$cache.new"
mkdir -p "$cache.new/root"
for d in "$tmp"/*.deb; do dpkg-deb -x "$d" "$cache.new/root"; done
root=$cache/root
libs=$(find "$cache.new/root" -name '*.so*' -printf '%h\n' | sort -u | sed "s|^$cache.new/root|$root|" | paste -sd:)
tessdata=$(dirname "$(find "$cache.new/root" -name eng.traineddata | head -n 1)")
tessdata=${tessdata/#$cache.new\/root/$root}
cat > "$cache.new/tesseract" <<WRAP
#!/bin/sh
# tesseract unpacked by autorag's scripts/ocr.sh from Debian's packages.
LD_LIBRARY_PATH="$libs\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" TESSDATA_PREFIX="$tessdata" exec "$root/usr/bin/tesseract" "\$@"
WRAP
chmod +x "$cache.new/tesseract"
rm -rf "$cache"
mv "$cache.new" "$cache"
has_eng "$wrapper" || { echo "ocr: $wrapper does not run:" >&2; "$wrapper" --version >&2 || true; exit 1; }
echo "ocr: $wrapper ($("$wrapper" --version 2>&1 | head -n 1)); set ocr_command to it"
