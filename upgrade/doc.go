// Package upgrade is staged embedding: searchable at once, better soon
// after. When the embedder a root should use is slow (a transformer run
// in process, or a remote OpenAI-compatible provider) and the committed
// index was not built with it, a refresh commits in two steps:
//
//  1. Stage plans the refresh: it writes the upgrade record
//     (.autorag/upgrade.json: the target embedder and how far its vectors
//     are) and the refresh commits with the built-in embedder (or keeps
//     the slow embedder the index already records), in seconds.
//  2. Run embeds, without the refresh lock, every distinct chunk text of
//     the committed mirror that the target's embedding cache lacks, in
//     groups of Group, flushing the cache after each (a SIGKILL loses at
//     most the group in flight; the cache is the same one refreshes use,
//     keyed by embedder identity and chunk text). Then it commits with an
//     ordinary refresh with the target embedder under the refresh lock:
//     that refresh scans again, so edits made meanwhile are folded in
//     (only their new chunks are embedded then), and readers switch
//     cleanly at the sidecar's rename. The record is then removed.
//
// One upgrader runs per root: Run holds .autorag/upgrade.lock (flock;
// never removed). Before each group, each record write and (under the
// refresh lock) its commit, it checks that the upgrade is still its own:
// after `index reset` (which removes the record) it stops with ErrReset
// and commits nothing; after another embedder was chosen it stops quietly.
// A refresh's eviction from the embedding cache keeps the target's
// vectors while the record names it (engine reads the target). The target is the embedder chosen (flag, environment,
// config file), else the record's: a plain refresh resumes an upgrade a
// crash or `refresh --no-wait` left, and choosing a fast embedder gives
// it up. Readers need nothing from here to answer: a query follows the
// committed index's embedder; Pending and Status say how far the upgrade
// is, for status, the JSON answers and --explain.
//
// The package must never import cmd; it imports engine (it is above it,
// like watch).
package upgrade
