#!/usr/bin/env bash
# Deploy a tagged Pelican release to a Kubernetes environment.
#
#   scripts/deploy.sh staging 2.3.0
#   scripts/deploy.sh production 2.3.0
#
# Steps: take the deploy lease, run migrations as a Job, roll out the new
# image, wait for the rollout, run the smoke test, release the lease. Any
# failure after the rollout started triggers `kubectl rollout undo`.
set -euo pipefail

readonly REGISTRY="registry.harbourside.example/pelican"
readonly NAMESPACE="fulfilment"

usage() {
  echo "usage: $0 staging|production VERSION" >&2
  exit 2
}

log() { printf '%s deploy: %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

[[ $# -eq 2 ]] || usage
env_name=$1
version=$2
case "$env_name" in
  staging) context="hs-staging" ;;
  production) context="hs-prod" ;;
  *) usage ;;
esac
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "version must look like 2.3.0" >&2; exit 2; }

kc() { kubectl --context "$context" -n "$NAMESPACE" "$@"; }
image="$REGISTRY:$version"
job="pelican-migrate-${version//./-}"
holder="$(whoami)@$(hostname)"

acquire_lease() {
  if ! kc create lease pelican-deploy --holder-identity "$holder" 2>/dev/null; then
    log "another deploy holds the lease:"
    kc get lease pelican-deploy -o jsonpath='{.spec.holderIdentity}{"\n"}' >&2
    exit 1
  fi
  trap release_lease EXIT
}

release_lease() { kc delete lease pelican-deploy --ignore-not-found >/dev/null; }

run_migrations() {
  log "running migrations with $image"
  kc delete job "$job" --ignore-not-found >/dev/null
  kc create job "$job" --image "$image" -- pelican migrate up
  if ! kc wait --for=condition=complete "job/$job" --timeout=10m; then
    kc logs "job/$job" >&2 || true
    log "migrations failed; nothing was rolled out"
    exit 3
  fi
}

rollout() {
  log "rolling out $image"
  kc set image deployment/pelican "pelican=$image"
  if ! kc rollout status deployment/pelican --timeout=15m; then
    log "rollout did not finish; rolling back"
    kc rollout undo deployment/pelican
    exit 3
  fi
}

smoke_test() {
  log "smoke test: creating a canary order"
  local base="https://pelican.$env_name.harbourside.example"
  local order_id state deadline=$((SECONDS + 180))
  order_id=$(curl -fsS -X POST "$base/v1/orders" \
      -H "Authorization: Bearer $(cat "${CANARY_TOKEN_FILE:?set CANARY_TOKEN_FILE}")" \
      -H "Content-Type: application/json" \
      -d '{"customer":{"email":"canary@harbourside.example"},"lines":[{"sku":"CANARY-1","quantity":1}]}' |
    jq -r .id)
  while (( SECONDS < deadline )); do
    state=$(curl -fsS "$base/v1/orders/$order_id" -H "Authorization: Bearer $(cat "$CANARY_TOKEN_FILE")" | jq -r .state)
    [[ $state == booked ]] && { log "canary order $order_id booked"; return 0; }
    sleep 5
  done
  log "canary order $order_id stuck in state $state; rolling back"
  kc rollout undo deployment/pelican
  exit 3
}

acquire_lease
run_migrations
rollout
smoke_test
log "deployed $version to $env_name"
