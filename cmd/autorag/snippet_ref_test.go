package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bestLinesPerLine is bestLines as it was, analyzing each line alone: the
// reference the one-pass version must agree with.
func (m *matcher) bestLinesPerLine(text string, n int) (lines []string, skipped bool) {
	var all []string
	var found []map[string]bool
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimRight(l, " \t\r")
		if strings.TrimSpace(l) == "" {
			continue
		}
		all = append(all, l)
		_, seen := m.matches(l)
		found = append(found, seen)
	}
	if len(all) <= n {
		return all, false
	}
	best, bestScore := 0, -1
	for i := 0; i+n <= len(all); i++ {
		if i > 0 && len(found[i]) == 0 {
			continue
		}
		if s := distinct(found[i : i+n]); s > bestScore {
			best, bestScore = i, s
		}
	}
	return all[best : best+n], best > 0
}

// TestBestLinesOnePassMatchesPerLine checks that analyzing a passage once
// finds, line by line, what analyzing each line alone finds: over every
// file of the test corpora, with queries made of their own words, and over
// texts whose lines begin or end in what could join across a line break.
func TestBestLinesOnePassMatchesPerLine(t *testing.T) {
	var texts []string
	for _, dir := range []string{"../../testdata/corpus", "../../testdata/multilingual"} {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			texts = append(texts, string(b))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	texts = append(texts,
		"café\u0301\n\u0301résumé\nfoo\r\nbar",
		"getUser\nName getUserName\n\u200dname\n3.\n14 v1.\n2",
		"🇫🇷\n🇫🇷 flag\nสวัสดี\nครับ\n日本\n語 日本語",
		"don’t\n’s John\n's\ttab\t\n  \n\nlast",
	)
	if len(texts) < 10 {
		t.Fatalf("read %d texts: the corpora moved?", len(texts))
	}
	checked := 0
	for i, text := range texts {
		words := strings.Fields(text)
		for _, n := range []int{1, 3} {
			for k := 0; k < len(words) && k < 40; k += 7 {
				q := strings.Join(words[k:min(k+3, len(words))], " ")
				m := newMatcher(q)
				got, gotSkip := m.bestLines(text, n)
				want, wantSkip := m.bestLinesPerLine(text, n)
				if strings.Join(got, "\n") != strings.Join(want, "\n") || gotSkip != wantSkip {
					t.Fatalf("text %d, query %q, n=%d:\none pass %q (skipped %v)\nper line %q (skipped %v)", i, q, n, got, gotSkip, want, wantSkip)
				}
				checked++
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d comparisons", checked)
	}
}

func BenchmarkBestLines(b *testing.B) {
	text, err := os.ReadFile("../../testdata/corpus/README.md")
	if err != nil {
		b.Fatal(err)
	}
	m := newMatcher("index refresh query")
	b.Run("one-pass", func(b *testing.B) {
		for b.Loop() {
			m.bestLines(string(text), 3)
		}
	})
	b.Run("per-line", func(b *testing.B) {
		for b.Loop() {
			m.bestLinesPerLine(string(text), 3)
		}
	})
}
