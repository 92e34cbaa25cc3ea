package wordpiece

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestVocabRoundTrip(t *testing.T) {
	tokens := []string{"[UNK]", "un", "##aff", "##able", "a", "##b", "é"}
	b, err := BuildVocab(tokens)
	if err != nil {
		t.Fatal(err)
	}
	v, err := OpenVocab(string(b))
	if err != nil {
		t.Fatal(err)
	}
	if v.Len() != len(tokens) {
		t.Fatalf("Len = %d, want %d", v.Len(), len(tokens))
	}
	for id, tok := range tokens {
		if got := v.Token(id); got != tok {
			t.Errorf("Token(%d) = %q, want %q", id, got, tok)
		}
		if got, ok := v.ID(tok); !ok || got != id {
			t.Errorf("ID(%q) = %d, %v; want %d", tok, got, ok, id)
		}
	}
	for _, missing := range []string{"", "u", "aff", "##un", "unaffable", "##"} {
		if id, ok := v.ID(missing); ok {
			t.Errorf("ID(%q) = %d, want none", missing, id)
		}
	}
}

func TestBuildVocabRejects(t *testing.T) {
	for name, tokens := range map[string][]string{
		"empty":       nil,
		"empty token": {"a", ""},
		"duplicate":   {"a", "b", "a"},
	} {
		if _, err := BuildVocab(tokens); err == nil {
			t.Errorf("%s: BuildVocab(%q) succeeded", name, tokens)
		}
	}
}

func TestOpenVocabRejectsCorrupt(t *testing.T) {
	b, err := BuildVocab([]string{"[UNK]", "a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"empty":     "",
		"magic":     "XXXXXXXX" + string(b[8:]),
		"truncated": string(b[:len(b)-1]),
		"extended":  string(b) + "x",
	} {
		if _, err := OpenVocab(data); err == nil {
			t.Errorf("%s: OpenVocab succeeded", name)
		}
	}
}

// TestPieces checks the WordPiece step on a small vocabulary, where the
// expected pieces can be worked out by hand.
func TestPieces(t *testing.T) {
	b, err := BuildVocab([]string{"[UNK]", "[CLS]", "un", "##aff", "##able", "aff", "able", "##a", "a", "!", "é", "e", "中"})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := OpenVocab(string(b))
	opt := BERT()
	opt.Specials = []string{"[CLS]"}
	opt.MaxWordChars = 5
	tk, err := New(v, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, want string }{
		{"unaffable", "[UNK]"}, // 9 characters > 5
		{"Unaff", "un ##aff"},
		{"able!aff", "able ! aff"},
		{"unx", "[UNK]"},                   // "x" matches nothing: the whole word is unknown
		{"aaa", "a ##a ##a"},               // longest match from each start
		{"É e\u0301", "e e"},               // accents stripped after decomposition
		{"a中a", "a 中 a"},                   // ideographs are words of their own
		{"[CLS]un[CLS]", "[CLS] un [CLS]"}, // specials matched in the raw text
		{"\u200baff\u0000", "aff"},         // control characters removed
		{"", ""},
	} {
		got := strings.Join(tk.tokens(tk.Append(nil, tc.in)), " ")
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%q: (-want +got)\n%s", tc.in, diff)
		}
	}
}

func TestNewRejects(t *testing.T) {
	b, _ := BuildVocab([]string{"a", "[UNK]"})
	v, _ := OpenVocab(string(b))
	for name, mutate := range map[string]func(*Options){
		"no unknown token": func(o *Options) { o.Unknown = "[X]" },
		"missing special":  func(o *Options) { o.Specials = []string{"[CLS]"} },
		"word length":      func(o *Options) { o.MaxWordChars = MaxWordCharsLimit + 1 },
	} {
		opt := BERT()
		opt.Specials = nil
		mutate(&opt)
		if _, err := New(v, opt); err == nil {
			t.Errorf("%s: New succeeded", name)
		}
	}
}

func TestParseJSONRejects(t *testing.T) {
	for name, js := range map[string]string{
		"not json":      `{`,
		"bpe":           `{"model": {"type": "BPE"}}`,
		"no normalizer": `{"model": {"type": "WordPiece", "vocab": {"[UNK]": 0}}, "pre_tokenizer": {"type": "BertPreTokenizer"}}`,
		"ids with a gap": `{"model": {"type": "WordPiece", "unk_token": "[UNK]", "max_input_chars_per_word": 100, "vocab": {"[UNK]": 0, "a": 2}},
			"normalizer": {"type": "BertNormalizer"}, "pre_tokenizer": {"type": "BertPreTokenizer"}}`,
	} {
		if _, err := FromJSON([]byte(js)); err == nil {
			t.Errorf("%s: FromJSON succeeded", name)
		}
	}
}

func TestAppendDoesNotAllocate(t *testing.T) {
	tk := testTokenizer(t)
	text := chunkText()
	dst := tk.Append(nil, text)
	allocs := testing.AllocsPerRun(20, func() { dst = tk.Append(dst[:0], text) })
	if allocs != 0 {
		t.Errorf("Append allocates %.0f times per text with a large enough dst", allocs)
	}
}
