package wordpiece

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The files under testdata come from the reference tokenizer (Hugging
// Face tokenizers 0.23.3) through testdata/reference.py, over the
// tokenizer.json of potion-base-8M (the BERT uncased vocabulary trimmed to
// 29,528 tokens).

var loadOnce = sync.OnceValues(func() (*Tokenizer, error) {
	data, err := os.ReadFile("testdata/potion-base-8M.tokenizer.json")
	if err != nil {
		return nil, err
	}
	return FromJSON(data)
})

func testTokenizer(tb testing.TB) *Tokenizer {
	tb.Helper()
	tk, err := loadOnce()
	if err != nil {
		tb.Fatal(err)
	}
	return tk
}

func (t *Tokenizer) tokens(ids []int) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = t.vocab.Token(id)
	}
	return out
}

// TestReferenceText compares every line of testdata/text.txt (prose, code,
// accents, CJK, emoji, long words, special tokens, control characters)
// token for token with the reference.
func TestReferenceText(t *testing.T) {
	tk := testTokenizer(t)
	text := readLines(t, "testdata/text.txt")
	golden := readLines(t, "testdata/text.golden")
	if len(text) != len(golden) {
		t.Fatalf("%d lines of text, %d of reference ids: run testdata/reference.py", len(text), len(golden))
	}
	for i, line := range text {
		got := joinIDs(tk.Append(nil, line))
		if got != golden[i] {
			want := parseIDs(t, golden[i])
			t.Errorf("line %d %q:\n got %q\nwant %q", i+1, line, tk.tokens(tk.Append(nil, line)), tk.tokens(want))
		}
	}
}

// TestReferenceCodepoints tokenizes a text around every Unicode code point
// and compares the digest of all the answers with the reference's: each
// character is classified (control, whitespace, punctuation, mark, CJK),
// decomposed and lower-cased as the reference does it.
func TestReferenceCodepoints(t *testing.T) {
	tk := testTokenizer(t)
	want := strings.TrimSpace(readLines(t, "testdata/codepoints.sha256")[0])
	h := sha256.New()
	var ids []int
	var line []byte
	for c := rune(0); c < 0x110000; c++ {
		if 0xD800 <= c && c <= 0xDFFF {
			continue
		}
		r := string(c)
		ids = tk.Append(ids[:0], "a"+r+"b "+r+" q"+r)
		line = strconv.AppendInt(line[:0], int64(c), 16)
		line = append(line, ' ')
		for i, id := range ids {
			if i > 0 {
				line = append(line, ' ')
			}
			line = strconv.AppendInt(line, int64(id), 10)
		}
		h.Write(append(line, '\n'))
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		t.Errorf("code point digest %s, reference %s: `python3 testdata/reference.py /tmp/ref.txt` lists the reference's answers", got, want)
	}
}

func readLines(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func joinIDs(ids []int) string {
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprint(&b, id)
	}
	return b.String()
}

func parseIDs(t *testing.T, s string) []int {
	var ids []int
	for _, f := range strings.Fields(s) {
		id, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}
