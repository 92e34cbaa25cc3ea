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

func TestMarkerCost(t *testing.T) {
	for _, m := range []string{Marker(0, 1, 1), Marker(10, 9999, 123456), Marker(3, 9, 0)} {
		if c := Count(m); c > markerCost {
			t.Errorf("marker %q costs %d tokens, more than markerCost %d", m, c, markerCost)
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
	if !strings.Contains(got.Text, lines[17]) || !strings.Contains(got.Text, lines[31]) {
		t.Errorf("trimmed text lost a matching line:\n%s", got.Text)
	}
	if !strings.Contains(got.Text, "[… lines 101-") {
		t.Errorf("no marker for the opening lines left out:\n%s", got.Text)
	}
	// The ranges name the source lines shown: 118 is line 17 of the passage.
	found := false
	for _, r := range got.Lines {
		found = found || r[0] <= 118 && 118 <= r[1]
	}
	if !found {
		t.Errorf("ranges %v do not include line 118", got.Lines)
	}
	// Whole text that fits comes back as it was.
	short := passage("the heron", "the river")
	if c := Trim(short, 5, NewMatcher("heron"), 100); c.Trimmed || c.Text != short || !cmp.Equal(c.Lines, [][2]int{{5, 6}}) {
		t.Errorf("Trim of a short passage = %+v", c)
	}
	if c := Trim(text, 1, NewMatcher("heron"), 3); c.Text != "" {
		t.Errorf("Trim to 3 tokens = %q, want nothing", c.Text)
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

// TestShareShowsMore: at a small budget, sharing it shows more of the
// ranking than whole passages do, and every passage it shows whole is one
// that fit its share.
func TestShareShowsMore(t *testing.T) {
	long := strings.Repeat("filler words about nothing in particular\n", 30) + "the heron result line\n"
	var ps []Passage
	for i := range 10 {
		ps = append(ps, Passage{Text: long, First: 1, Head: fmt.Sprintf("## [%d] f%d.md\n", i+1, i)})
	}
	share, _, _ := Fit(ps, Options{MaxTokens: 500, Query: "heron"})
	whole, _, _ := Fit(ps, Options{MaxTokens: 500, Query: "heron", Strategy: Whole})
	if len(share) != 10 || len(whole) != 1 {
		t.Fatalf("share showed %d, whole %d; want 10 and 1", len(share), len(whole))
	}
	for _, x := range share {
		if !x.Trimmed || !strings.Contains(x.Text, "heron") {
			t.Errorf("shared passage %d: trimmed %v, text %q", x.Index, x.Trimmed, x.Text)
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
