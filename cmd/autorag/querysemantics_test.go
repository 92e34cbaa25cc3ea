package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestQueryCacheSurvivesReinstall: the same code installed again (another
// path, another mtime) answers from the cache the first install filled;
// the key holds the query-time code's digest, not the executable's
// identity.
func TestQueryCacheSurvivesReinstall(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	const q = "retry with exponential backoff"
	wantCached(t, queryRun(t, nil, root, q), false, "first query")

	exe := filepath.Join(t.TempDir(), "autorag-reinstalled")
	b, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, b, 0o755); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(exe, later, later); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "--root", root, "query", "--json", q)
	cmd.Env = append(cleanEnv(), "AUTORAG_TEST_MAIN=1")
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("reinstalled binary: %v", err)
	}
	var env map[string]any
	if err := json.Unmarshal(out.Bytes(), &env); err != nil {
		t.Fatalf("reinstalled binary: %v: %s", err, out.Bytes())
	}
	wantCached(t, env, true, "the same code reinstalled")
}
