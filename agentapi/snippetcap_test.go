package agentapi

import (
	"strconv"
	"strings"
	"testing"
)

// TestSnippetCacheIsBoundedByBytes: entries keyed by long queries fill the
// cache by bytes, not only by count (123 searches of 400 KB queries took an
// MCP server from 22 to 170 MB).
func TestSnippetCacheIsBoundedByBytes(t *testing.T) {
	var c snippetCache
	query := strings.Repeat("q", 8<<10)
	for i := range snippetCacheEntries {
		c.put(snippetKey{root: "r", query: query + strconv.Itoa(i), path: "p.md"}, snipped{text: "some text", trimmed: true})
	}
	held := 0
	for k, s := range c.m {
		held += len(k.query) + len(s.text)
	}
	if held > snippetCacheBytes {
		t.Fatalf("the cache holds %d bytes of queries and text, over %d", held, snippetCacheBytes)
	}
}
