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
// # Workspaces
//
// A Workspace serves several roots, each a Member with a name, each with
// its own API opened on first use (and closed again after
// WorkspaceOptions.IdleClose without a request, which releases its open
// generation and query cache; the next request reopens it). The
// transports serve a Workspace, of one root or many; every request may
// name a root (by name, or by an absolute path inside it).
//
// A search without a root goes to every root at once (at most Parallel
// at a time) and the answers are merged. Each root's scores are
// normalized within its own lists (hybrid fusion divides BM25 by that
// root's best BM25 score), so each root's best hit scores about 1 however
// weak it is, and raw BM25 does not compare across roots either: each
// root has its own term statistics, and a root that is about the question
// rates its common words (its own name, its jargon) lowest. The merge
// (MergeEvidence, calibrate.go and coverage.go) therefore weighs each
// root by evidence that does not depend on those statistics: the share of
// the query's terms its best three passages hold, times 1 plus how well
// those passages' file names match the query (and whether they define an
// identifier it names), cubed, times the square root of its best cosine
// similarity, over the best root's; each root's scores are divided by its
// best (fusion for code tops out below 1) and multiplied by that weight.
// It never reorders a root's own list. Passages a reranker scored are
// merged by its scores as they are (every root asks the same reranker), before
// any it did not score; a root whose reranker failed says so in roots
// (reranked, rerank_error) and in the answer. On pairs of real code trees
// (bench/agents roots) this keeps each root's questions close to how they
// rank asked of that root alone, where scaling by the best BM25 lost up to
// 0.25 MRR@10; on one corpus dealt over roots it costs a little against
// that scaling (docs/QUALITY.md, "Merging roots"). A root that fails is
// reported in the answer's roots with its error; the others answer.
// Status and refresh are per root the same way; read needs a root when
// there are several.
//
// With Snippets (and no max_tokens; MCP's default) each merged passage
// longer than SnippetChars is cut to its best-matching lines (snippet.go),
// remembered per generation and query so a repeated search does not
// analyze its passages again.
//
// With max_tokens the merged results are fitted to the budget by package
// budget as Markdown prints them (FitHits): the budget is shared among the
// results, long passages trimmed to their best-matching lines.
//
// # Running the watcher in the server
//
// Service and Engine expose what a watcher needs: a goroutine running the
// watch loop over api.Engine() commits through the same lock, and the
// searches pick the commits up through the sidecar like any other.
package agentapi
