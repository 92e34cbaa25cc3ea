#!/usr/bin/env bash
# A small script for the golden test.
set -euo pipefail

# log prints a message to stderr.
log() {
  echo "$*" >&2
}

function build {
  log "building"
  make -j2
}

main() {
  build
}

main "$@"
