// Package recorded compares what a committed index recorded of how it was
// built (the sidecar's settings: the embedder's identity above all) with
// what is configured now.
//
// The index is the source of truth for its embedder. What reads an index
// (queries, status, a server) embeds queries with the embedder the
// committed generation records, whatever is configured; a refresh keeps
// that embedder unless one was chosen (by a flag, the environment or the
// config file), in which case it switches and re-embeds. The engine applies
// the rule (storage.go); this package holds its pure parts: comparing
// identities across index versions, naming the settings that differ, and
// the fingerprint the sources have under the recorded settings, which
// status compares so that a setting never reads as a changed source.
//
// It must never import package engine.
package recorded
