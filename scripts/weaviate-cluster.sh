#!/usr/bin/env bash
# Starts or stops a local Weaviate cluster on loopback for autorag's Weaviate
# backend (users and tests). Usage:
#
#   scripts/weaviate-cluster.sh up [3|1]   start 3 nodes (default) or 1 node
#   scripts/weaviate-cluster.sh down       stop the nodes this script started
#   scripts/weaviate-cluster.sh status     print each node's pid and readiness
#   scripts/weaviate-cluster.sh grpc       print node 1's gRPC address
#   scripts/weaviate-cluster.sh kill N     kill -9 node N (fault tests)
#   scripts/weaviate-cluster.sh start N    restart node N with its data
#
# The pinned server is built once into $(go env GOPATH)/bin. Each node gets its
# own loopback address (127.0.0.11..13) with the same cluster ports, because
# Raft derives a peer's address from its gossip address plus the local
# RAFT_PORT (docs: FINDINGS, Weaviate); gRPC and profiling ports differ per node
# since they bind every interface (WEAVIATE_PORT_OFFSET shifts them for a
# second cluster). Data and logs live under
# $WEAVIATE_DIR (default .weaviate/ in the repository), which this script owns.
# The REST endpoint of node 1 is printed on success (export it as
# AUTORAG_WEAVIATE_URL). WEAVIATE_GOGC sets the servers' GOGC (default 200):
# the Go GC was 30 % of a server's CPU in a bulk import at 100; 200 cut the
# three servers' CPU for a 16,000-doc first refresh on 3 nodes from 55-77 s
# to 44-53 s and raised each node's peak RSS from 0.9-1.4 to 1.1-1.7 GB
# (400: 2.2-2.9 GB; docs/BENCHMARKS.md, "Weaviate backend"; the runs: git log -p docs/BENCHMARKS.md, "Weaviate import: server work per
# object"). WEAVIATE_SERVER_ENV adds server settings (VAR=value words,
# space-separated) to every node's environment, e.g.
# WEAVIATE_SERVER_ENV="PERSISTENCE_MEMTABLES_MAX_SIZE_MB=400". GOMEMLIMIT is
# no free cap there: Weaviate refuses a batch ("not enough memory") once
# the live heap nears it.
set -euo pipefail

VERSION=v1.35.2
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DIR="${WEAVIATE_DIR:-$ROOT/.weaviate}"
REST_PORT="${WEAVIATE_REST_PORT:-18080}"
READY_TIMEOUT="${WEAVIATE_READY_TIMEOUT:-240}"
GOSSIP_PORT=17946
DATA_PORT=17947
RAFT_PORT=18300
RAFT_RPC_PORT=18301
OFF="${WEAVIATE_PORT_OFFSET:-0}"

server_bin() {
	local bin
	bin="$(go env GOPATH)/bin/weaviate-server"
	if [ ! -x "$bin" ]; then
		echo "building weaviate-server $VERSION (several minutes)..." >&2
		go install "github.com/weaviate/weaviate/cmd/weaviate-server@$VERSION" >&2
	fi
	echo "$bin"
}

# WEAVIATE_NET is the loopback prefix of the node addresses (node N listens on
# ${WEAVIATE_NET}N): a second cluster on the same machine takes another, e.g.
# WEAVIATE_NET=127.0.0.2 for 127.0.0.21..23.
NET="${WEAVIATE_NET:-127.0.0.1}"
addr() { echo "$NET$1"; }

# WEAVIATE_ROOT_KEY, when set, turns on API-key authentication and RBAC:
# that key is the root user's, anonymous access is off, and database users
# (made through the API, each with its own key) are on. The Weaviate tests
# of API-key scoping run against such a cluster (AUTORAG_WEAVIATE_AUTH_URL).
ROOT_KEY="${WEAVIATE_ROOT_KEY:-}"
auth_env() {
	if [ -z "$ROOT_KEY" ]; then
		echo AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED=true
		return
	fi
	echo AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED=false
	echo AUTHENTICATION_APIKEY_ENABLED=true
	echo "AUTHENTICATION_APIKEY_ALLOWED_KEYS=$ROOT_KEY"
	echo AUTHENTICATION_APIKEY_USERS=root
	echo AUTHENTICATION_DB_USERS_ENABLED=true
	echo AUTHORIZATION_RBAC_ENABLED=true
	echo AUTHORIZATION_RBAC_ROOT_USERS=root
}
curl_auth() {
	if [ -n "$ROOT_KEY" ]; then
		curl -H "Authorization: Bearer $ROOT_KEY" "$@"
	else
		curl "$@"
	fi
}

# close_fds closes every descriptor above 2 in a node's shell before it
# becomes the server: a server that inherited the open file of
# `flock /tmp/autorag-cpu.lock scripts/weaviate-cluster.sh up` held the
# machine's CPU lock until the cluster went down.
close_fds() {
	local fd
	for fd in /proc/self/fd/*; do
		fd=${fd##*/}
		if [ "$fd" -gt 2 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi
	done
}

# start_node N NODES: starts node N of a NODES-node cluster in the background.
start_node() {
	local n=$1 nodes=$2 bin a join="" peers="node1:$RAFT_PORT" expect=1
	bin="$(server_bin)"
	a="$(addr "$n")"
	if [ "$nodes" -eq 3 ]; then
		peers="node1:$RAFT_PORT,node2:$RAFT_PORT,node3:$RAFT_PORT"
		expect=3
		[ "$n" -ne 1 ] && join="$(addr 1):$GOSSIP_PORT"
	fi
	mkdir -p "$DIR/node$n"
	# shellcheck disable=SC2046,SC2086 # one VAR=value word per line or space
	(close_fds; exec env -i PATH="$PATH" HOME="${HOME:-/tmp}" \
		PERSISTENCE_DATA_PATH="$DIR/node$n/data" \
		$(auth_env) \
		DEFAULT_VECTORIZER_MODULE=none \
		ENABLE_MODULES= \
		DISABLE_TELEMETRY=true \
		AUTOSCHEMA_ENABLED=false \
		USE_BLOCKMAX_WAND="${WEAVIATE_BLOCKMAX_WAND:-false}" \
		LOG_LEVEL=info \
		GOGC="${WEAVIATE_GOGC:-200}" \
		${WEAVIATE_SERVER_ENV:-} \
		QUERY_DEFAULTS_LIMIT=100 \
		CLUSTER_HOSTNAME="node$n" \
		CLUSTER_BIND_ADDR="$a" \
		CLUSTER_ADVERTISE_ADDR="$a" \
		CLUSTER_GOSSIP_BIND_PORT=$GOSSIP_PORT \
		CLUSTER_DATA_BIND_PORT=$((DATA_PORT + OFF + 10 * (n - 1))) \
		CLUSTER_JOIN="$join" \
		RAFT_PORT=$RAFT_PORT \
		RAFT_INTERNAL_RPC_PORT=$RAFT_RPC_PORT \
		RAFT_BOOTSTRAP_EXPECT=$expect \
		RAFT_JOIN="$peers" \
		GRPC_PORT=$((15050 + OFF + 10 * n)) \
		GO_PROFILING_PORT=$((16060 + OFF + 10 * n)) \
		setsid "$bin" --host "$a" --port "$REST_PORT" --scheme http \
		>>"$DIR/node$n/log" 2>&1 </dev/null) &
	echo $! >"$DIR/node$n/pid"
	echo "$nodes" >"$DIR/nodes"
}

ready() { curl -fsS -o /dev/null --max-time 2 "http://$(addr "$1"):$REST_PORT/v1/.well-known/ready" 2>/dev/null; }

wait_ready() {
	local n=$1 deadline=$((SECONDS + READY_TIMEOUT))
	until ready "$n"; do
		if ! alive "$n"; then
			echo "node$n exited; last log lines:" >&2
			tail -n 20 "$DIR/node$n/log" >&2
			return 1
		fi
		if [ $SECONDS -ge $deadline ]; then
			echo "node$n not ready after ${READY_TIMEOUT}s; log: $DIR/node$n/log" >&2
			tail -n 20 "$DIR/node$n/log" >&2
			return 1
		fi
		sleep 1
	done
}

# wait_whole NODES: waits until a live node lists NODES HEALTHY members. A
# node answers ready before memberlist has it back in the cluster, and until
# then Weaviate writes to the replicas it can reach (see engine/backend/weaviate
# Health), so "up" and "start" return only once the cluster is whole.
wait_whole() {
	local nodes=$1 n deadline=$((SECONDS + READY_TIMEOUT)) got=0
	while :; do
		for n in $(seq 1 "$nodes"); do
			alive "$n" || continue
			got="$(curl_auth -fsS --max-time 5 "http://$(addr "$n"):$REST_PORT/v1/nodes" 2>/dev/null |
				grep -o '"status":"HEALTHY"' | wc -l)" || got=0
			[ "$got" -eq "$nodes" ] && return 0
			break
		done
		if [ $SECONDS -ge $deadline ]; then
			echo "cluster not whole after ${READY_TIMEOUT}s ($got of $nodes nodes healthy)" >&2
			return 1
		fi
		sleep 1
	done
}

alive() { [ -f "$DIR/node$1/pid" ] && kill -0 "$(cat "$DIR/node$1/pid")" 2>/dev/null; }

node_count() { cat "$DIR/nodes" 2>/dev/null || echo 3; }

up() {
	local nodes=${1:-3} n
	case "$nodes" in 1 | 3) ;; *) echo "nodes must be 1 or 3" >&2; exit 2 ;; esac
	server_bin >/dev/null
	mkdir -p "$DIR"
	for n in $(seq 1 "$nodes"); do
		if alive "$n"; then continue; fi
		start_node "$n" "$nodes"
		[ "$n" -eq 1 ] && [ "$nodes" -eq 3 ] && sleep 3
	done
	for n in $(seq 1 "$nodes"); do wait_ready "$n"; done
	wait_whole "$nodes"
	echo "grpc: $(grpc_addr)" >&2
	echo "http://$(addr 1):$REST_PORT"
}

# grpc_addr is node 1's gRPC address (export it as AUTORAG_WEAVIATE_GRPC).
grpc_addr() { echo "$(addr 1):$((15050 + OFF + 10))"; }

stop_node() {
	local n=$1 pid i
	alive "$n" || { rm -f "$DIR/node$n/pid"; return 0; }
	pid="$(cat "$DIR/node$n/pid")"
	kill "$pid" 2>/dev/null || true
	for i in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
	kill -9 "$pid" 2>/dev/null || true
	rm -f "$DIR/node$n/pid"
}

down() {
	local n
	for n in 3 2 1; do stop_node "$n"; done
	if [ "${1:-}" = "--wipe" ]; then rm -rf "$DIR"; fi
}

case "${1:-}" in
up) up "${2:-3}" ;;
down) down "${2:-}" ;;
grpc) grpc_addr ;;
status)
	for n in $(seq 1 "$(node_count)"); do
		if alive "$n"; then s=alive; else s=stopped; fi
		if ready "$n" 2>/dev/null; then r=ready; else r=unready; fi
		echo "node$n $(addr "$n"):$REST_PORT $s $r"
	done
	;;
kill)
	alive "$2" && kill -9 "$(cat "$DIR/node$2/pid")"
	rm -f "$DIR/node$2/pid"
	;;
start)
	start_node "$2" "$(node_count)"
	wait_ready "$2"
	wait_whole "$(node_count)"
	;;
*)
	echo "usage: $0 up [3|1] | down [--wipe] | status | grpc | kill N | start N" >&2
	exit 2
	;;
esac
