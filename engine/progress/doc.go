// Package progress is how a refresh reports its advance: the Progress a
// caller implements (a progress line), the phases it goes through, and
// Watch, the embed.Observer that turns a remote embedder's requests,
// retries and split inputs into progress and counts.
//
// It must never import package engine or a backend (engine/imports_test.go).
package progress
