package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/chunk"
)

// bestLinesPerLine is bestLines as it was before it scored lines through
// budget.Matcher, analyzing each line alone: the reference the scorer
// (which remembers words' terms) must agree with.
func bestLinesPerLine(query, text string, n int) (lines []string, skipped bool) {
	terms := map[string]bool{}
	for _, t := range analyze.Terms(query) {
		terms[t] = true
	}
	var all []string
	var found []map[string]bool
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimRight(l, " \t\r")
		if strings.TrimSpace(l) == "" {
			continue
		}
		all = append(all, l)
		seen := map[string]bool{}
		for _, t := range analyze.Analyzer().Analyze([]byte(l)) {
			if terms[string(t.Term)] {
				seen[string(t.Term)] = true
			}
		}
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
		u := map[string]bool{}
		for _, f := range found[i : i+n] {
			for t := range f {
				u[t] = true
			}
		}
		if len(u) > bestScore {
			best, bestScore = i, len(u)
		}
	}
	return all[best : best+n], best > 0
}

// TestBestLinesMatchesPerLine checks that bestLines, through budget's
// scorer, picks the lines that analyzing each line alone picks: over every
// file of the test corpora, with queries made of their own words, and over
// texts whose lines begin or end in what could join across a line break.
func TestBestLinesMatchesPerLine(t *testing.T) {
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
				want, wantSkip := bestLinesPerLine(q, text, n)
				if strings.Join(got, "\n") != strings.Join(want, "\n") || gotSkip != wantSkip {
					t.Fatalf("text %d, query %q, n=%d:\nbestLines %q (skipped %v)\nper line %q (skipped %v)", i, q, n, got, gotSkip, want, wantSkip)
				}
				checked++
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d comparisons", checked)
	}
}

// BenchmarkBestLines picks the lines the text format shows (n=3) in every
// chunk of the test corpus, as the index cuts them, for a few queries: the
// work of printing a few hundred results.
func BenchmarkBestLines(b *testing.B) {
	var texts []string
	err := filepath.WalkDir("../../testdata/corpus", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		kind := chunk.KindCode
		if strings.HasSuffix(p, ".md") {
			kind = chunk.KindMarkdown
		}
		for _, c := range chunk.Split(kind, string(src), chunk.Options{}) {
			texts = append(texts, c.Text)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	queries := []string{"index refresh query", "retry backoff", "parse config file", "vector embedding model"}
	var ms []matcher
	for _, q := range queries {
		ms = append(ms, newMatcher(q))
	}
	cpu0, _, _, _ := cpuTimes(0)
	for b.Loop() {
		for _, m := range ms {
			for _, t := range texts {
				m.bestLines(t, 3)
			}
		}
	}
	cpu, _, _, _ := cpuTimes(0)
	b.ReportMetric(float64((cpu-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(texts)*len(ms)), "passages/op")
}
