package analyze

// Differential tests: the one-pass analyzer (chain.go, tokenize.go) must
// emit exactly the token stream of the chain it replaces, bleve's unicode
// tokenizer followed by the filters one after another.

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/token/stop"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/segment"
	"github.com/google/go-cmp/cmp"
)

// referenceAnalyzer is the chain as the package first built it, from bleve
// components and the package's filters, run one after another.
var referenceAnalyzer = sync.OnceValue(func() analysis.Analyzer {
	return &analysis.DefaultAnalyzer{
		Tokenizer: scriptTokenizer{},
		TokenFilters: []analysis.TokenFilter{
			identFilter{},
			lowerFilter{},
			en.NewPossessiveFilter(),
			stop.NewStopTokensFilter(englishStopWords()),
			porter.NewPorterStemmer(),
		},
	}
})

// tokenRecord is everything a token carries, for comparison.
type tokenRecord struct {
	Term       string
	Start, End int
	Position   int
	Type       analysis.TokenType
	KeyWord    bool
}

func records(ts analysis.TokenStream) []tokenRecord {
	out := make([]tokenRecord, len(ts))
	for i, t := range ts {
		out[i] = tokenRecord{string(t.Term), t.Start, t.End, t.Position, t.Type, t.KeyWord}
	}
	return out
}

// analyzeDiff returns how the analyzer's stream for text differs from the
// reference's, or "". Each gets its own copy of the input: both may write
// to it.
func analyzeDiff(text []byte) string {
	want := records(referenceAnalyzer().Analyze(bytes.Clone(text)))
	got := records(Analyzer().Analyze(bytes.Clone(text)))
	return cmp.Diff(want, got)
}

// tokenizeDiff compares the tokenizer alone with bleve's unicode tokenizer,
// and with scriptTokenizer, which is bleve's but for the letters bleve
// drops: where there are none, the two must agree.
func tokenizeDiff(text []byte) string {
	want := records(scriptTokenizer{}.Tokenize(text))
	if !hasDroppedLetter(text) {
		if d := cmp.Diff(records(unicode.NewUnicodeTokenizer().Tokenize(text)), want); d != "" {
			return "scriptTokenizer differs from bleve's:\n" + d
		}
	}
	var got []tokenRecord
	z := tokenizer{data: text}
	for pos := 1; ; pos++ {
		term, start, typ, _, ok := z.next()
		if !ok {
			break
		}
		got = append(got, tokenRecord{string(term), start, start + len(term), pos, typ, false})
	}
	if len(got) == 0 {
		got = []tokenRecord{} // records of an empty stream
	}
	return cmp.Diff(want, got)
}

// hasDroppedLetter reports whether text has a letter to which the
// word-break tables give no class (script.go).
func hasDroppedLetter(text []byte) bool {
	for _, c := range string(text) {
		if c >= utf8.RuneSelf && isLetter(c) {
			if _, typ, _ := segmentOfRune(c); typ == segment.None {
				return true
			}
		}
	}
	return false
}

// segmentOfRune is what segment.SegmentWords makes of c alone.
func segmentOfRune(c rune) (int, int, error) {
	n, _, typ, err := segment.SegmentWords([]byte(string(c)), true)
	return n, typ, err
}

// segmentDiff checks asciiSegment against segment.SegmentWords at every
// offset of text, not only at segment boundaries: wherever asciiSegment
// answers, it must answer what the segmenter answers.
func segmentDiff(text []byte) string {
	for i := range text {
		n, typ, ok := asciiSegment(text[i:])
		if !ok {
			continue
		}
		adv, seg, wantTyp, err := segment.SegmentWords(text[i:], true)
		if err != nil || adv != n || len(seg) != n || wantTyp != typ || (n > 0 && &seg[0] != &text[i]) {
			return fmt.Sprintf("at %d of %q: asciiSegment = %d bytes, type %d; SegmentWords = advance %d, %q, type %d, err %v",
				i, text, n, typ, adv, seg, wantTyp, err)
		}
	}
	return ""
}

// checkEquivalent fails t when any of the differential checks fails on text.
func checkEquivalent(t testing.TB, text []byte) {
	t.Helper()
	if d := segmentDiff(text); d != "" {
		t.Fatalf("segment: %s", d)
	}
	if d := tokenizeDiff(text); d != "" {
		t.Fatalf("tokenize(%q) (-bleve +ours):\n%s", text, d)
	}
	if d := analyzeDiff(text); d != "" {
		t.Fatalf("Analyze(%q) (-reference +ours):\n%s", text, d)
	}
}

// trickyInputs are the cases the fast paths must get right; they also seed
// FuzzAnalyzeEquivalent.
var trickyInputs = []string{
	"", " ", "  ", "a", "A", "7", "_", "__", "___", "'", "''", ".", ":", ",", ";", "\"",
	// apostrophes and possessives
	"can't", "can’t", "can＇t", "don’t_'", "John's", "JOHN'S", "John’s", "John＇s", "runners'",
	"'quoted'", "\"double\"", "O'Reilly's", "rock'n'roll", "'s", "s'", "a'", "'a", "a''b", "a'1", "1'a",
	"foo_'s x.'s a_'_b", "it's John’s car＇s", "l'été", "d’Artagnan",
	// numbers
	"3.14", "1,000", "1,000.50", "$1,000.00", "1;2", "1:2", "1'000", "1.a", "a.1", "a1.2", "1a.b",
	"1.", ".1", "1,", ",1", "1..2", "1.,2", "50%", "3.14e-10", "0x1F", "1_000_000", "_1_", "1_a", "a_1",
	"192.168.0.1:8080", "2024-01-02T03:04:05Z", "v1.2.3", "1.2.3.4",
	// dotted, underscores, colons
	"e.g.", "i.e", "U.S.A.", "a..b", "a.:b", "a:b", "a::b", "std::vector<int>", "foo_bar", "foo__bar",
	"_foo_", "foo_.bar", "__init__", "__init__.py", "foo_bar.baz", "a.b.c.d", "x86_64", "a_'b",
	// identifiers
	"HTTPServer", "getUserName", "userIDs", "URLs", "IDs", "utf8Decode", "İstanbulFoo", "XMLHttpRequest",
	"parseHTTP2Frame", "ÜberClass", "straßeName", "кодКласса",
	"thisIsAVeryLongJavaStyleMethodNameThatGoesOnAndOnForeverAndEverAgain",
	// punctuation, emails, URLs, hyphens
	"kebab-case", "path/to/file.go", "user@example.com", "foo@bar.baz",
	"https://example.com/a/b?q=1&r=2#frag", "[link](http://x.io/a_b.html)", "hyphen-ated — em–dash",
	"$HOME/.config", "#include <stdio.h>", "i++", "a+b=c", "...", "---", ":::", "'''", "a--b", "a/b\\c",
	// scripts
	"日本語", "ひらがなカタカナ", "漢字かな交じり文", "カタカナ_テスト", "한국어 텍스트", "ภาษาไทยง่ายนิดเดียว",
	// letters the word-break tables give no class (script.go)
	"ใช้Pythonเขียน", "เด็กๆ ฯลฯ", "ๆ", "่ก", "ก\xff", "ก\xe0\xb8", "ไทย_ok", "แพนเธอร์ส's", "ภาษา3ไทย",
	"ភាសាខ្មែរ", "ພາສາລາວ", "မြန်မာ", "𞤀𞤁𞤂 word", "𗀀𗀁", "a\u0e01b", "\u0e01\u200b\u0e02",
	"Ελληνικά ΣΊΣΥΦΟΣ", "Русский текст", "שלום עולם", "צה\"ל", "א'ב", "مرحبا بالعالم", "नमस्ते दुनिया",
	"ß", "ǅ", "K Kelvin", "Ω Ohm", "Ⱥ ⱥ", "ϒ", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "ｆｕｌｌ ＷＩＤＴＨ", "１２３ ４５", "Ｉｎｃ．",
	// emoji
	"👍", "👍🏽", "👨‍👩‍👧‍👦", "🇫🇷🇩🇪", "a👍b", "1️⃣", "❤️",
	// combining marks, format characters
	"e\u0301", "nai\u0308ve", "naïve", "café", "Zürich-based", "x²", "H₂O", "ab\u0301c", "a\u0301.b",
	"a.\u0301b", "1.\u0301 2", "\u0301", " \u0301a", "soft\u00adhyphen", "zero\u200bwidth", "zw\u200dj",
	"a\u200e.b", "a\u2019b", "a\u2018b", "a\u2024b", "1\u066c000",
	// whitespace and line breaks
	"tab\tsep", "line1\nline2\r\nline3\rline4", "\r\n", "\r", "\n\r", "\v\f", "a\u0085b", "word\u2028next",
	"\u3000ideographic space", "a\u00a0b", "\r\n\u0301",
	// control characters and invalid UTF-8
	"\x00\x01\x1f\x7f", "a\x00b", "\xff", "\xc3", "a\xffb", " \xff", "\xff ", "\xcd a", "a\xcda", "\xcc",
	"\xe2\x80", "\xe2\x80 x", "ok \xf0\x9f text", "x\xc4 y", "\xc4\x80\xc4", "abc\x80", "1.\xff",
	"\xff\xfeAbc\xc3 日本語 v1.2.3 3.14", "a \xc2\x85 b",
	// term length limits
	strings.Repeat("a", 70), strings.Repeat("ab", 35), strings.Repeat("b", 64), strings.Repeat("c", 65),
	strings.Repeat("é", 33), "sha " + strings.Repeat("0123456789abcdef", 4) + "0a",
	"short " + strings.Repeat("x", 63) + "Tail end",
	// prose and code
	"The runners' running quickly", "func (s *Store) GetUserByID(ctx context.Context) error",
	"generalizations connected connecting happily conflated hopping fizzed agreed",
	"| col_a | colB |\n|---|---|\n| 1,5 | x.y |",
}

func TestAnalyzeEquivalentTricky(t *testing.T) {
	for _, s := range trickyInputs {
		checkEquivalent(t, []byte(s))
		// Glued to ASCII text on both sides, and with spaces.
		checkEquivalent(t, []byte("ab"+s+"cd"))
		checkEquivalent(t, []byte("1 "+s+" z"))
		checkEquivalent(t, []byte(s+"."+s+"_"+s+"'"+s))
	}
}

// corpusFiles returns text files to analyze: the repository's test corpus,
// fuzz seeds and the Go source of the engine.
func corpusFiles(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, root := range []string{"../../testdata", "../chunk/testdata", "../../mirror/testdata", ".."} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "node_modules" {
				// testdata/mcpclient's npm packages (installed by .ci/run):
				// thousands of files, not test corpus.
				return filepath.SkipDir
			}
			if d.IsDir() || root == ".." && !strings.HasSuffix(path, ".go") {
				return nil // under engine/, Go files only
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files[path] = b
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 20 {
		t.Fatalf("only %d corpus files", len(files))
	}
	return files
}

func TestAnalyzeEquivalentCorpus(t *testing.T) {
	files := corpusFiles(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for path, b := range files {
		if d := analyzeDiff(b); d != "" {
			t.Fatalf("Analyze(%s) (-reference +ours):\n%s", path, d)
		}
		if d := tokenizeDiff(b); d != "" {
			t.Fatalf("tokenize(%s) (-bleve +ours):\n%s", path, d)
		}
		// Random byte ranges: cuts through runes give invalid UTF-8 at the edges.
		for range 5 {
			if len(b) == 0 {
				break
			}
			i := rng.IntN(len(b))
			j := min(len(b), i+1+rng.IntN(300))
			checkEquivalent(t, b[i:j])
		}
	}
}

// wordPool is material for generated text: words of several scripts, code
// and markup fragments, separators.
var wordPool = [][]string{
	strings.Fields("the a of and retrieval running runners' John's can't isn't don’t e.g. i.e. U.S. " +
		"3.14 1,000 2,5 10.0.0.1 v2.6.3 x86_64 __init__ foo_bar.baz HTTPServer getUserName userIDs " +
		"utf8Decode ctx.Err() fmt.Errorf(\"%w\", err) []byte{} map[string]int self.assertEqual " +
		"def __repr__(self): {\"key\": [1, 2.5, true, null]} ## Heading [link](https://go.dev/doc) " +
		"| a | b | --- `code_span` **bold** _em_ <div class=\"x\"> user@example.com C:\\path\\file.txt " +
		"l'homme O'Neil's rock'n'roll 50% $9.99 #tag @mention ~/.bashrc a:b::c a..b 1.a a.1 'quoted'"),
	strings.Fields("café naïve Zürich-based résumé coöperate façade São Paulo über Straße ĲSSEL ǅemal " +
		"İstanbul ıi Ελληνικά σοφός ΣΊΣΥΦΟΣ Русский ЁЖИК український Ω K Ⱥ x² H₂O ½ ①"),
	strings.Fields("日本語 東京タワー ひらがな カタカナ 漢字 中文字符 한국어 문장 ภาษาไทย สวัสดี " +
		"שלום צה\"ל مرحبا العربية नमस्ते हिन्दी ১২৩ ١٢٣ １２３ ＡＢＣ ｶﾀｶﾅ"),
	{"👍", "👍🏽", "👨‍👩‍👧‍👦", "🇫🇷", "❤️", "e\u0301", "\u0301", "\u200d", "\u00ad", "\u200b", "\u2019", "＇",
		"\ufeff", "\u2028", "\u0085", "\xff", "\xc3", "\xcd", "\xe2\x80", "\x00", "\x7f"},
	{" ", " ", " ", " ", "\n", "\t", "\r\n", ".", ",", ";", ":", "'", "_", "-", "/", "(", ")", "\"", "\u3000", "\u00a0", ""},
}

// randomText concatenates random pool entries, mostly ASCII words and
// separators.
func randomText(rng *rand.Rand, n int) []byte {
	var b []byte
	for range n {
		var pool []string
		switch p := rng.IntN(20); {
		case p < 9:
			pool = wordPool[0]
		case p < 11:
			pool = wordPool[1]
		case p < 12:
			pool = wordPool[2]
		case p < 13:
			pool = wordPool[3]
		default:
			pool = wordPool[4]
		}
		b = append(b, pool[rng.IntN(len(pool))]...)
	}
	return b
}

func TestAnalyzeEquivalentGenerated(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	rounds := 3000
	if testing.Short() || raceEnabled {
		rounds = 300
	}
	for range rounds {
		text := randomText(rng, 1+rng.IntN(40))
		checkEquivalent(t, text)
	}
	// One long text, in one piece.
	long := randomText(rng, 20000)
	if d := analyzeDiff(long); d != "" {
		t.Fatalf("long text (-reference +ours):\n%s", d)
	}
}

// TestASCIIWordBreakTable checks asciiWB against the word-break classes of
// Unicode 8.0 WordBreakProperty.txt for ASCII.
func TestASCIIWordBreakTable(t *testing.T) {
	for c := range utf8.RuneSelf {
		want := wbOther
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z':
			want = wbALetter
		case '0' <= c && c <= '9':
			want = wbNumeric
		case c == '_':
			want = wbExtendNumLt
		case c == ':':
			want = wbMidLetter
		case c == ',' || c == ';':
			want = wbMidNum
		case c == '.':
			want = wbMidNumLet
		case c == '\'':
			want = wbSingleQuote
		case c == '\r':
			want = wbCR
		case c == '\n':
			want = wbLF
		case c == '\v' || c == '\f':
			want = wbNewline
		}
		if got := int(asciiWB[c]); got != want {
			t.Errorf("asciiWB[%q] = %d, want %d", rune(c), got, want)
		}
	}
}

// TestASCIISegmentExhaustive runs asciiSegment against the segmenter on
// every string of up to four characters over an alphabet with one byte of
// each ASCII class and a few non-ASCII starts.
func TestASCIISegmentExhaustive(t *testing.T) {
	alphabet := []string{"a", "Z", "7", "_", ":", ",", ";", ".", "'", "\"", " ", "-", "\r", "\n", "\v", "\x00", "é", "\u0301", "\xff", "\xcd"}
	var buf []byte
	var rec func(depth int)
	rec = func(depth int) {
		if len(buf) > 0 {
			if d := segmentDiff(buf); d != "" {
				t.Fatal(d)
			}
		}
		if depth == 0 {
			return
		}
		for _, s := range alphabet {
			n := len(buf)
			buf = append(buf, s...)
			rec(depth - 1)
			buf = buf[:n]
		}
	}
	rec(4)
}
