package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestGenCorpusDeterministic(t *testing.T) {
	a := newGenCorpus(300, 42)
	b := newGenCorpus(300, 42)
	if !slices.Equal(a.Planted, b.Planted) {
		t.Fatalf("planted terms differ for the same seed:\n%v\n%v", a.Planted, b.Planted)
	}
	for _, i := range []int{0, 1, 150, 299} {
		if !bytes.Equal(a.Doc(i), b.Doc(i)) {
			t.Errorf("doc %d differs between two corpora with the same seed", i)
		}
	}
	if bytes.Equal(a.Doc(7), a.Doc(8)) {
		t.Error("docs 7 and 8 are identical")
	}
	if c := newGenCorpus(300, 43); bytes.Equal(a.Doc(7), c.Doc(7)) {
		t.Error("doc 7 is the same for seeds 42 and 43")
	}
}

// TestGenCorpusGolden pins the generator's output. If it fails, corpora
// cached on disk no longer match what the generator writes: bump
// generatorVersion, then update the want values.
func TestGenCorpusGolden(t *testing.T) {
	c := newGenCorpus(400, corpusSeed)
	const wantSum = "f3f4fa405688ce354e927c303ee45e3d9563d1d40c65ff425996af726dc37c26"
	if got := fmt.Sprintf("%x", sha256.Sum256(c.Doc(0))); got != wantSum {
		t.Errorf("sha256(doc 0) = %s, want %s", got, wantSum)
	}
	if got, want := c.Planted[0].Docs, [2]int{168, 263}; got != want {
		t.Errorf("%s planted in %v, want %v", c.Planted[0].Term, got, want)
	}
	if got, want := generatorVersion, "autorag-bench-corpus/1"; got != want {
		t.Errorf("generatorVersion = %q, want %q: update the golden values with it", got, want)
	}
}

func TestGenCorpusDocSize(t *testing.T) {
	c := newGenCorpus(400, corpusSeed)
	var total int
	for i := range c.Size {
		doc := c.Doc(i)
		total += len(doc)
		if n := len(doc); n < 4800 || n > 6800 {
			t.Errorf("doc %d is %d bytes, want 4.8–6.8 KB", i, n)
		}
		if got := bytes.Count(doc, []byte("\n\n")); got != paragraphsPerDoc {
			t.Errorf("doc %d has %d paragraphs, want %d", i, got, paragraphsPerDoc)
		}
	}
	if avg := total / c.Size; avg < 5400 || avg > 6000 {
		t.Errorf("average doc size %d bytes, want about 5.7 KB", avg)
	}
}

func TestGenCorpusPlantedTermsInExactlyTwoDocs(t *testing.T) {
	for _, size := range []int{2, 50, 400, 2000} {
		c := newGenCorpus(size, corpusSeed)
		if want := max(4, size/50); len(c.Planted) != want {
			t.Errorf("size %d: %d planted terms, want %d", size, len(c.Planted), want)
		}
		re := regexp.MustCompile(plantedPrefix + `\d+`)
		docsOf := make(map[string][]int)
		for i := range size {
			found := make(map[string]bool)
			for _, m := range re.FindAllString(string(c.Doc(i)), -1) {
				found[m] = true
			}
			for term := range found {
				docsOf[term] = append(docsOf[term], i)
			}
		}
		if len(docsOf) != len(c.Planted) {
			t.Errorf("size %d: %d distinct planted terms in the text, want %d", size, len(docsOf), len(c.Planted))
		}
		for _, p := range c.Planted {
			got := docsOf[p.Term]
			want := []int{min(p.Docs[0], p.Docs[1]), max(p.Docs[0], p.Docs[1])}
			if !slices.Equal(got, want) || want[0] == want[1] {
				t.Errorf("size %d: %s in docs %v, want exactly %v", size, p.Term, got, want)
			}
		}
	}
}

func TestVocabulary(t *testing.T) {
	seen := make(map[string]bool)
	for _, w := range words {
		if seen[w] {
			t.Errorf("duplicate word %q", w)
		}
		seen[w] = true
		if strings.Contains(w, plantedPrefix) || w == "" || strings.ToLower(w) != w {
			t.Errorf("bad vocabulary word %q", w)
		}
	}
	for w := range strings.FieldsSeq(broadQuery) {
		if !seen[w] {
			t.Errorf("broad query word %q is not in the vocabulary", w)
		}
	}
}

func TestEnsureCachedReuses(t *testing.T) {
	cache := t.TempDir()
	c := newGenCorpus(20, corpusSeed)
	dir, reused, err := c.ensureCached(cache, 4)
	if err != nil || reused {
		t.Fatalf("first ensureCached: reused=%v err=%v", reused, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 20 {
		t.Fatalf("corpus dir has %d entries (err %v), want 20", len(entries), err)
	}
	got, err := os.ReadFile(filepath.Join(dir, c.DocName(3)))
	if err != nil || !bytes.Equal(got, c.Doc(3)) {
		t.Fatalf("doc-00003.md does not match Doc(3) (err %v)", err)
	}

	marker := filepath.Join(dir, "marker")
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, reused, err := c.ensureCached(cache, 4); err != nil || !reused {
		t.Fatalf("second ensureCached: reused=%v err=%v, want reuse", reused, err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("reused corpus was rewritten")
	}

	// A stamp from another generator version forces regeneration.
	if err := os.WriteFile(dir+".stamp", []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, reused, err := c.ensureCached(cache, 4); err != nil || reused {
		t.Fatalf("ensureCached with stale stamp: reused=%v err=%v, want regeneration", reused, err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("stale corpus was not replaced")
	}
}

func TestEditorChangesContentEveryTime(t *testing.T) {
	root := t.TempDir()
	orig := []byte("# Title\n\nBody.\n")
	if err := os.WriteFile(filepath.Join(root, "a.md"), orig, 0o644); err != nil {
		t.Fatal(err)
	}
	ed := newEditor(root)
	var prev []byte
	for range 3 {
		if err := ed.edit("a.md"); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(root, "a.md"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(got, orig) || bytes.Equal(got, orig) || bytes.Equal(got, prev) {
			t.Fatalf("edit produced %q (previous %q)", got, prev)
		}
		if len(got) > len(orig)+200 {
			t.Fatalf("edits accumulate: %d bytes", len(got))
		}
		prev = got
	}
}
