package budget

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCount(t *testing.T) {
	// Reference counts from OpenAI's tiktoken (cl100k_base).
	for s, want := range map[string]int{
		"":                   0,
		"hello world":        2,
		"tiktoken is great!": 6,
	} {
		if got := Count(s); got != want {
			t.Errorf("Count(%q) = %d, want %d", s, got, want)
		}
	}
}

func passage(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

func TestTrimKeepsTheMatchingLines(t *testing.T) {
	var lines []string
	for i := range 40 {
		lines = append(lines, fmt.Sprintf("line %d says nothing of interest to anyone at all", i))
	}
	lines[17] = "the heron waits by the river for fish"
	lines[31] = "a heron again"
	text := passage(lines...)
	got := Trim(text, 101, NewMatcher("heron river"), 60)
	if !got.Trimmed || Count(got.Text) > 60 {
		t.Fatalf("Trim = %+v (%d tokens), want trimmed within 60", got, Count(got.Text))
	}
	// One run around the line with both terms, as many lines above as
	// below, cited by one range: 118 is line 17 of the passage.
	want := passage(lines[15:20]...)
	if got.Text != want || !cmp.Equal(got.Lines, [][2]int{{116, 120}}) {
		t.Errorf("Trim = %q %v, want %q [[116 120]]", got.Text, got.Lines, want)
	}
	// Whole text that fits comes back as it was.
	short := passage("the heron", "the river")
	if c := Trim(short, 5, NewMatcher("heron"), 100); c.Trimmed || c.Text != short || !cmp.Equal(c.Lines, [][2]int{{5, 6}}) {
		t.Errorf("Trim of a short passage = %+v", c)
	}
	if c := Trim(text, 1, NewMatcher("heron"), 1); c.Text != "" {
		t.Errorf("Trim to 1 token = %q, want nothing", c.Text)
	}
}

// TestFitNeverExceeds: whatever the passages, the strategy and the budget,
// what Fit shows stays within it, in rank order, and counts what it says.
func TestFitNeverExceeds(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	words := strings.Fields("heron river boat fish dawn retry backoff config parse the a of and to in")
	for round := range 60 {
		var ps []Passage
		for i := range 1 + r.Intn(12) {
			var lines []string
			for range 1 + r.Intn(30) {
				var l []string
				for range r.Intn(14) {
					l = append(l, words[r.Intn(len(words))])
				}
				lines = append(lines, strings.Join(l, " "))
			}
			ps = append(ps, Passage{Text: passage(lines...), First: 1 + r.Intn(50), Head: fmt.Sprintf("## [%d] docs/f%d.md:1-9\n", i+1, i)})
		}
		budget := 20 + r.Intn(1500)
		for _, s := range []Strategy{Share, Whole, Tail} {
			shown, used, err := Fit(ps, Options{MaxTokens: budget, Query: "heron retry", Strategy: s})
			if err != nil {
				t.Fatal(err)
			}
			sum, last := 0, -1
			for _, x := range shown {
				if x.Index <= last {
					t.Fatalf("round %d %s: out of rank order: %d after %d", round, s, x.Index, last)
				}
				last = x.Index
				if x.Tokens != Count(ps[x.Index].Head)+Count(x.Text) {
					t.Fatalf("round %d %s: tokens %d misreported", round, s, x.Tokens)
				}
				sum += x.Tokens
			}
			if sum != used || used > budget {
				t.Fatalf("round %d %s: used %d (sum %d) of %d", round, s, used, sum, budget)
			}
		}
	}
}

// TestShareShowsFewerLonger: at a small budget, sharing it shows the
// best passages each in at least DefaultMinTokens, one run of lines around
// their match, rather than a line or two of every passage; what a short
// passage leaves goes to the others.
func TestShareShowsFewerLonger(t *testing.T) {
	long := strings.Repeat("filler words about nothing in particular\n", 30) + "the heron result line\n" + strings.Repeat("more filler\n", 10)
	var ps []Passage
	for i := range 10 {
		ps = append(ps, Passage{Text: long, First: 1, Head: fmt.Sprintf("## [%d] f%d.md\n", i+1, i)})
	}
	ps[1].Text = "the heron, short\n"
	share, used, _ := Fit(ps, Options{MaxTokens: 500, Query: "heron"})
	whole, _, _ := Fit(ps, Options{MaxTokens: 500, Query: "heron", Strategy: Whole})
	if len(share) != 3 || len(whole) != 2 || used < 450 {
		t.Fatalf("share showed %d in %d tokens, whole %d; want 3 in at least 450 and 2", len(share), used, len(whole))
	}
	for _, x := range share {
		if x.Index != 1 && (!x.Trimmed || len(x.Lines) != 1 || !strings.Contains(x.Text, "heron") || x.Tokens < DefaultMinTokens) {
			t.Errorf("shared passage %d: trimmed %v, lines %v, %d tokens, text %q", x.Index, x.Trimmed, x.Lines, x.Tokens, x.Text)
		}
	}
	if _, _, err := Fit(ps, Options{}); err == nil {
		t.Error("a zero budget accepted")
	}
}

// BenchmarkFit fits ten passages of about 2,000 characters to 1,000
// tokens, what a budgeted search adds to its answer.
func BenchmarkFit(b *testing.B) {
	line := "The heron waits by the river for the fish that the current brings down from the hills.\n"
	var ps []Passage
	for i := range 10 {
		ps = append(ps, Passage{Text: strings.Repeat(line, 22), First: 1 + 40*i, Head: fmt.Sprintf("\n[%d] docs/f%d.md:1-22\n```md\n\n```\n", i+1, i)})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Fit(ps, Options{MaxTokens: 1000, Query: "heron fish"}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLineCosts: one pass of the tokenizer gives each line its tokens,
// summing to the count of the whole text.
func TestLineCosts(t *testing.T) {
	lines := []string{"# Herons", "", "The grey heron fishes at dawn.", "  indented code();", "naïve café über"}
	costs, total := lineCosts(lines)
	if want := Count(strings.Join(lines, "\n") + "\n"); total != want {
		t.Errorf("total %d, want %d", total, want)
	}
	sum := 0
	for i, c := range costs {
		sum += c
		if c == 0 && lines[i] != "" {
			t.Errorf("line %q costs nothing", lines[i])
		}
	}
	if sum != total {
		t.Errorf("costs %v sum to %d, not %d", costs, sum, total)
	}
}
