package analyze

import (
	"slices"
	"sort"
	"testing"
	"unicode"
)

// scriptSample returns up to n letters of a script, from the start of its
// ranges.
func scriptSample(tab *unicode.RangeTable, n int) []rune {
	var out []rune
	for _, r := range tab.R16 {
		for c := rune(r.Lo); c <= rune(r.Hi) && len(out) < n; c += rune(r.Stride) {
			if unicode.IsLetter(c) && !isRunBreak(c) {
				out = append(out, c)
			}
		}
	}
	for _, r := range tab.R32 {
		for c := rune(r.Lo); c <= rune(r.Hi) && len(out) < n; c += rune(r.Stride) {
			if unicode.IsLetter(c) && !isRunBreak(c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// TestEveryScriptYieldsTerms: two words of letters of every script Unicode
// (as Go knows it) has letters in come out as terms in every chain. Before
// the tokenizer recovered the letters segment's Unicode 8 tables give no
// class, Thai, Lao, Khmer, Myanmar and 37 other scripts yielded nothing.
func TestEveryScriptYieldsTerms(t *testing.T) {
	var names []string
	for name := range unicode.Scripts {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		letters := scriptSample(unicode.Scripts[name], 12)
		if len(letters) < 2 {
			continue // Common, Inherited and scripts of marks only
		}
		half := len(letters) / 2
		text := string(letters[:half]) + " " + string(letters[half:])
		for _, code := range Languages() {
			if terms := TermsIn(text, []string{code}); len(terms) == 0 {
				t.Errorf("%s in the %s chain: %q yields no terms", name, code, text)
			}
		}
	}
}

func TestThaiSegmentation(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		// words of the dictionary
		{"ภาษาไทยง่ายนิดเดียว", []string{"ภาษา", "ไทย", "ง่าย", "นิด", "เดียว"}},
		// a loanword outside it stays whole; the silent consonant (์) ends
		// the syllable before it
		{"แพนเธอร์สได้อันดับ", []string{"แพน", "เธอร์ส", "ได้", "อันดับ"}},
		// Latin and digits inside Thai text
		{"ใช้Pythonเขียน 3 ครั้ง", []string{"ใช้", "python", "เขียน", "3", "ครั้ง"}},
		// the repetition mark punctuates
		{"เด็กๆ", []string{"เด็ก"}},
	} {
		if got := termsOf(English, c.text); !slices.Equal(got, c.want) {
			t.Errorf("%q: got %q, want %q", c.text, got, c.want)
		}
	}
}

func TestClusterBigrams(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"ភាសាខ្មែរ", []string{"ភាសា", "សាខ្", "ខ្មែ", "មែរ"}}, // Khmer: marks stay with their letter
		{"ພາສາ", []string{"ພາ", "າສ", "ສາ"}},                   // Lao
		{"ក", []string{"ក"}}, // one cluster
	} {
		if got := termsOf(English, c.text); !slices.Equal(got, c.want) {
			t.Errorf("%q: got %q, want %q", c.text, got, c.want)
		}
	}
}
