package main

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQueryCacheNeverServesDamagedEntries: every entry file overwritten
// with garbage, cut short or with one bit flipped is a miss, and the
// answer is the index's.
func TestQueryCacheNeverServesDamagedEntries(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	queries := []string{"rotate JWT signing keys", "least recently used cache eviction"}
	want := map[string]map[string]any{}
	for _, q := range queries {
		want[q] = queryRun(t, nil, root, "--no-cache", q)
	}
	damages := []struct {
		name string
		f    func(b []byte) []byte
	}{
		{"garbage", func(b []byte) []byte {
			r := rand.New(rand.NewPCG(uint64(len(b)), 3))
			for i := range b {
				b[i] = byte(r.Uint32())
			}
			return b
		}},
		{"truncated", func(b []byte) []byte { return b[:len(b)/2] }},
		{"empty", func(b []byte) []byte { return nil }},
		{"one bit flipped", func(b []byte) []byte { b[len(b)*2/3] ^= 0x10; return b }},
	}
	for _, d := range damages {
		for _, q := range queries {
			queryTwice(t, nil, root, d.name+": before the damage", q) // so the entry exists
		}
		if n := damageEntries(t, filepath.Join(root, ".autorag", "cache", "query"), d.f); n < len(queries) {
			t.Fatalf("%s: damaged %d entry files, want at least %d", d.name, n, len(queries))
		}
		for _, q := range queries {
			got := queryRun(t, nil, root, q)
			wantCached(t, got, false, d.name+": "+q)
			sameResults(t, want[q], got, d.name+": "+q)
		}
	}
}

// entryFiles lists the entry files under dir: every regular file but the
// cache's own bookkeeping (names starting with '.').
func entryFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case strings.HasPrefix(d.Name(), ".") && p != dir:
			if d.IsDir() {
				return filepath.SkipDir
			}
		case d.Type().IsRegular():
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// saveEntries returns the content of every entry file under dir, by path.
func saveEntries(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, p := range entryFiles(t, dir) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = b
	}
	if len(out) == 0 {
		t.Fatalf("no cache entries under %s", dir)
	}
	return out
}

func restoreEntries(t *testing.T, dir string, entries map[string][]byte) {
	t.Helper()
	for p, b := range entries {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// damageEntries rewrites every entry file under dir with f's result and
// returns how many it rewrote.
func damageEntries(t *testing.T, dir string, f func([]byte) []byte) int {
	t.Helper()
	files := entryFiles(t, dir)
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f(b), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return len(files)
}
