package unigram

import (
	"slices"
	"testing"
)

// tiny is a vocabulary small enough to work the Viterbi path out by hand.
func tiny(t *testing.T) *Tokenizer {
	t.Helper()
	pieces := []string{"<s>", "<pad>", "</s>", "<unk>", "▁", "▁a", "b", "▁ab", "▁abc", "c", "bc", "▁x", "é", "▁xyzé"}
	scores := []float32{0, 0, 0, 0, -1, -2, -2, -5, -9, -3, -1, -1, -4, -0.5}
	norm := map[rune][]rune{
		'\t':     {' '},
		'\u00a0': {' '},
		0x01:     {},         // removed
		'ﬁ':      {'f', 'i'}, // expanded
		'Ａ':      {'a'},      // folded
		'\r':     {' '},
	}
	tok, err := New(pieces, scores, 3, norm)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestSegmentation(t *testing.T) {
	tok := tiny(t)
	for _, c := range []struct {
		text string
		want []int
	}{
		// ▁a b c: -2-2-3 = -7; ▁a bc: -3; ▁ab c: -8; ▁abc: -9. Best: ▁a bc.
		{"abc", []int{5, 10}},
		{"ab", []int{5, 6}}, // ▁a b (-4) beats ▁ab (-5)
		{"x", []int{11}},
		{"xyzé x", []int{13, 11}}, // the longest piece, found past its first two code points
		{"xyz", []int{11, 3, 3}},
		// spaces collapse, a leading space is kept as the one ▁.
		{"  x   x", []int{11, 11}},
		{"x\t\u00a0x", []int{11, 11}},
		// unknown code points are one <unk> each, not fused.
		{"zz", []int{4, 3, 3}},
		{"", []int{4}},
		{" ", []int{4}},
		{"\x01x", []int{11}},  // removed by the map: ▁x
		{"Ａbc", []int{5, 10}}, // folded to abc
		{"é", []int{4, 12}},
		{"<s>", []int{4, 0}},       // a control piece is matched literally, as e5.c does
		{"ﬁ", []int{4, 3, 3}},      // expanded to f i, both unknown
		{"\xff", []int{4, 3}},      // a stray byte is one code point, unknown
		{"\xc3\xa9", []int{4, 12}}, // é as UTF-8
		{"\xc3", []int{4, 3}},      // a cut sequence: the byte alone
	} {
		if got := tok.Append(nil, c.text); !slices.Equal(got, c.want) {
			t.Errorf("%q: got %v, want %v", c.text, got, c.want)
		}
	}
}

func TestAppendKeepsPrefix(t *testing.T) {
	tok := tiny(t)
	got := tok.Append([]int{99}, "x")
	if !slices.Equal(got, []int{99, 11}) {
		t.Fatalf("got %v, want [99 11]", got)
	}
}

func TestNewRejectsBadVocabulary(t *testing.T) {
	if _, err := New([]string{"a"}, []float32{0, 1}, 0, nil); err == nil {
		t.Error("pieces and scores of different lengths: no error")
	}
	if _, err := New([]string{"a"}, []float32{0}, 5, nil); err == nil {
		t.Error("unknown id outside the vocabulary: no error")
	}
}

func TestDecodeMatchesE5C(t *testing.T) {
	for _, c := range []struct {
		in   string
		cp   rune
		size int
	}{
		{"a", 'a', 1}, {"é", 'é', 2}, {"€", '€', 3}, {"🍕", '🍕', 4},
		{"\x80", 0x80, 1}, {"\xc3", 0xc3, 1}, {"\xe2\x82", 0xe2, 1},
		{"\xc3\x28", 0xe8, 2}, // continuation not checked: (0x03<<6)|0x28
		{"\xf8\x80", 0xf8, 1},
	} {
		cp, n := decode(c.in)
		if cp != c.cp || n != c.size {
			t.Errorf("decode(%q) = %#x, %d; want %#x, %d", c.in, cp, n, c.cp, c.size)
		}
	}
}
