package main

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/autorag/autorag/envelope"
)

// TestQueryLengthIsCapped: a query past the cap is a usage error with a
// clear message on the CLI and over HTTP, not a 400 KB cache key.
func TestQueryLengthIsCapped(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "heron.md", "# Herons\n\nThe heron fishes at dawn.\n")
	refreshJSON(t, root)
	long := strings.Repeat("heron ", 60<<10/6) // under the 128 KiB of one argument
	r := cli(t, nil, "--root", root, "query", long)
	if r.code != exitUsage || !strings.Contains(r.stderr, "query of") {
		t.Errorf("CLI, a 60 KB query: exit %d %.300s", r.code, r.stderr)
	}
	s := startServer(t, "--root", root, "serve", "--addr", "127.0.0.1:0")
	var env envelope.Error
	code := getJSON(t, http.DefaultClient, s.base+"/v1/search?"+url.Values{"q": {long[:20000]}}.Encode(), &env)
	if code != http.StatusBadRequest || env.Error.Code != envelope.CodeUsage || !strings.Contains(env.Error.Message, "query of") {
		t.Errorf("serve, a 20 KB query: %d %+v", code, env.Error)
	}
}
