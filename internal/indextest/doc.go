// Package indextest is test support shared by the packages above the engine
// (agentapi, mcpserver, eval): it writes a tree of files and indexes it with
// the built-in static embedder, the way their tests all set up a real index.
//
// It is imported only from _test.go files. It must never be imported by the
// engine's own packages (that would be a cycle) nor by product code.
package indextest
