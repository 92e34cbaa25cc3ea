// Package agentapi owns the operations that `autorag mcp` and `autorag
// serve` offer to agents: search, refresh, status and read. The transports
// (package mcpserver for the Model Context Protocol, package httpapi for
// the HTTP JSON API) only decode a request, call an API method and encode
// its answer, so both answer alike.
//
// An API holds one engine.Service for the life of the process: the
// committed generation stays open, repeated queries are answered from the
// service's in-memory cache, and a commit by any other process is noticed
// on the next request by a stat of the sidecar. Searches never take the
// refresh lock; Refresh takes it exactly as `autorag refresh` does and
// answers busy as a normal result.
//
// # The stale flag
//
// A search answer says whether the sources changed since the committed
// index (stale). Finding out costs a walk of the tree (engine
// SourcesChanged, mirror.Changed: stat only), the same as a no-op
// refresh's scan (BenchmarkChanged and BenchmarkScanNoop in mirror agree
// within noise; docs/BENCHMARKS.md has that scan at 3-4 ms for 2,000 files
// and 29-36 ms for 16,000), far more than a search, so no search waits for
// one except the first after a new commit.
// The check runs in the background at most once per StaleInterval and never
// more often than ten times its own last duration (so it takes at most a
// tenth of one core); each answer carries the last result and when it was
// taken (stale_checked_at).
//
// # Running the watcher in the server
//
// Service and Engine expose what a watcher needs: a goroutine running the
// watch loop over api.Engine() commits through the same lock, and the
// searches pick the commits up through the sidecar like any other.
package agentapi
