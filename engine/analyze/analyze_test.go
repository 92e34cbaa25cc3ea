package analyze

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// terms returns the terms the analyzer emits for text, in stream order.
func terms(text string) []string {
	var out []string
	for _, t := range Analyzer().Analyze([]byte(text)) {
		out = append(out, string(t.Term))
	}
	return out
}

func TestAnalyze(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"prose", "The runners' running quickly", []string{"runner", "run", "quickli"}},
		{"possessive", "John's book", []string{"john", "book"}},
		{"typographic apostrophes", "isn’t it great, Mary’s", []string{"great", "mari"}},
		{"stop words only", "the and of to in is it", nil},
		{"stemming", "generalizations connected connecting", []string{"gener", "connect", "connect"}},
		{"camelCase", "getUserName", []string{"getusernam", "get", "user", "name"}},
		{"PascalCase acronym", "HTTPServer", []string{"httpserver", "http", "server"}},
		{"digits stay with letters", "utf8Decode", []string{"utf8decod", "utf8", "decod"}},
		{"plural acronym", "userIDs", []string{"userid", "user", "id"}},
		{"snake and dotted", "foo_bar.baz", []string{"foo_bar.baz", "foo", "bar", "baz"}},
		{"kebab-case", "kebab-case", []string{"kebab", "case"}},
		{"dunder", "__init__", []string{"__init__", "init"}},
		{"arch", "x86_64", []string{"x86_64", "x86", "64"}},
		{"version", "v1.2.3", []string{"v1.2.3", "v1", "2", "3"}},
		{"numbers stay whole", "3.14 and 1,000", []string{"3.14", "1,000"}},
		{"shrinking lower case", "İstanbulFoo", []string{"istanbulfoo", "istanbul", "foo"}},
		{"combining marks", "nai\u0308ve", []string{"nai\u0308v"}},
		{"CJK one ideograph per token", "日本語", []string{"日", "本", "語"}},
		{
			"Go code",
			"func (s *Store) GetUserByID(ctx context.Context) error",
			[]string{"func", "s", "store", "getuserbyid", "get", "user", "id", "ctx", "context.context", "context", "context", "error"},
		},
		{"too long", strings.Repeat("a", 65) + " ok", []string{"ok"}},
		{"64 bytes kept", strings.Repeat("b", 64), []string{strings.Repeat("b", 64)}},
		{
			"long identifier keeps its parts",
			"thisIsAVeryLongJavaStyleMethodNameThatGoesOnAndOnForeverAndEverAgain",
			[]string{"long", "java", "style", "method", "name", "goe", "forev", "ever"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, terms(tt.text)); diff != "" {
				t.Fatalf("Analyze(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestPositionsAndOffsets(t *testing.T) {
	input := "say getUserName is code"
	type tok struct {
		Term     string
		Pos      int
		Original string
	}
	var got []tok
	for _, t := range Analyzer().Analyze([]byte(input)) {
		got = append(got, tok{string(t.Term), t.Position, input[t.Start:t.End]})
	}
	want := []tok{
		{"sai", 1, "say"},
		{"getusernam", 2, "getUserName"},
		{"get", 2, "get"},
		{"user", 3, "User"},
		{"name", 4, "Name"},
		{"code", 6, "code"}, // "is" (5) is a stop word
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("tokens (-want +got):\n%s", diff)
	}
}

func TestTerms(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"", nil},
		{"the of and", nil},
		{"Running runners run RUN users User", []string{"run", "runner", "user"}},
		{"parseConfig config parse", []string{"parseconfig", "pars", "config"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Terms(tt.text)); diff != "" {
			t.Errorf("Terms(%q) (-want +got):\n%s", tt.text, diff)
		}
	}
}

// TestTermsLeavesInputAlone checks that Terms does not analyze the query's
// own bytes in place (Analyze lower-cases and stems in place). q is a heap
// copy, so a write to it neither faults nor goes unseen: q and want share
// no memory, and string comparison reads both.
func TestTermsLeavesInputAlone(t *testing.T) {
	want := "GetUserByID"
	q := strings.Clone(want)
	Terms(q)
	if q != want {
		t.Fatalf("query string changed to %q", q)
	}
}

func TestAnalyzerIsShared(t *testing.T) {
	if Analyzer() != Analyzer() {
		t.Fatal("Analyzer returned two different analyzers")
	}
}

func TestConcurrentUse(t *testing.T) {
	inputs := []string{
		"The runners' running quickly",
		"func (s *Store) GetUserByID(ctx context.Context) error",
		"foo_bar.baz HTTPServer utf8Decode İstanbulFoo",
	}
	want := make([][]string, len(inputs))
	for i, in := range inputs {
		want[i] = Terms(in)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Go(func() {
			for n := range 200 {
				i := (g + n) % len(inputs)
				if got := Terms(inputs[i]); !cmp.Equal(want[i], got) {
					errs <- fmt.Sprintf("Terms(%q) = %q, want %q", inputs[i], got, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
