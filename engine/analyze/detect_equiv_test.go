package analyze

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestDetectMatchesReference runs detect, which reads ASCII letters on a
// quick path, and referenceDetect, the detector as it was before that
// path, over random texts of the stop words of every language, capitalized
// or not, mixed with letters of every script the detector counts, long
// words, apostrophes and punctuation: they must give the same answers.
func TestDetectMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 3))
	pieces := append([]string{}, stopTableWords[:]...)
	pieces = append(pieces, "Los", "Angeles", "don't", "l'eau", "іноді", "їжа", "Єва", "đường", "Việt", "ư", "ελληνικά", "فارسی", "پژوهش", "كتاب", "हिन्दी", "ภาษาไทย", "東京都", "한국어", "x", "É", "İstanbul",
		strings.Repeat("a", 31), strings.Repeat("b", 32), strings.Repeat("C", 40), strings.Repeat("é", 16), strings.Repeat("é", 15)+"e", "d41d8cd98f00b204e9800998ecf8427e", "\xff\xfe", "a\u0301b")
	seps := []string{" ", " ", ", ", ". ", "\n", "! ", "? ", ": ", "; ", "\"", "“", "«", "¿", "。", "؟", "-", "_", "1", "'", "’", "\t"}
	for k := range 20000 {
		var sb strings.Builder
		for range r.IntN(200) {
			w := pieces[r.IntN(len(pieces))]
			if r.IntN(4) == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			sb.WriteString(w)
			sb.WriteString(seps[r.IntN(len(seps))])
		}
		text := sb.String()
		for _, least := range []float64{1, minScore} {
			for _, fallback := range []string{"", English, "de"} {
				if got, want := detect(text, fallback, least), referenceDetect(text, fallback, least); got != want {
					t.Fatalf("text %d (least %v, fallback %q): detect %q, reference %q\n%q", k, least, fallback, got, want, text)
				}
			}
		}
	}
}

func referenceDetect(text, fallback string, least float64) string {
	var score, withNames [len(others) + 1]float64
	var scripts scriptCounts
	var buf [32]byte
	words, ukrainian, sentence := 0, false, true
	for i := 0; i < len(text) && words < detectWords; {
		// skip to the next letter
		c, w := rune(text[i]), 1
		if c >= utf8.RuneSelf {
			c, w = utf8.DecodeRuneInString(text[i:])
		}
		if !isLetter(c) {
			sentence = sentence || endsSentence(c)
			i += w
			continue
		}
		// A capitalized word inside a sentence is a name or part of one
		// ("Los Angeles", "San Diego", "De Niro"): its stop words vote
		// only when the other words do not decide.
		name := !sentence && isUpper(c)
		sentence = false
		n, long, viet := 0, false, false
		for i < len(text) {
			c, w = rune(text[i]), 1
			if c >= utf8.RuneSelf {
				c, w = utf8.DecodeRuneInString(text[i:])
			}
			if !isLetter(c) && c != '\'' {
				break
			}
			scripts.letters += w
			if c >= utf8.RuneSelf {
				scripts.add(c, w)
				viet = viet || isVietnamese(c)
			}
			switch c {
			case 'і', 'ї', 'є', 'ґ', 'І', 'Ї', 'Є', 'Ґ':
				ukrainian = true
			}
			i += w
			if c < utf8.RuneSelf {
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
			} else {
				c = unicode.ToLower(c)
			}
			if n+utf8.RuneLen(c) > len(buf) {
				long = true
				continue
			}
			n += utf8.EncodeRune(buf[n:], c)
		}
		words++
		if viet {
			scripts.viet++
		}
		if long || n == 1 {
			// One-letter stop words ("a", "e", "y", "o", "c") are more
			// often variables, list markers and initials than words.
			continue
		}
		if m := stopMask(buf[:n]); m != 0 {
			share := 1 / float64(bits.OnesCount16(m))
			for ; m != 0; m &= m - 1 {
				l := bits.TrailingZeros16(m)
				withNames[l] += share
				if !name {
					score[l] += share
				}
			}
		}
	}
	if code := scripts.language(words); code != "" {
		return code
	}
	if ukrainian {
		ru := slices.IndexFunc(others[:], func(l language) bool { return l.code == "ru" }) + 1
		score[ru], withNames[ru] = 0, 0
	}
	// The words of names vote only when the others say too little: the
	// Romanian paragraph about the Los Angeles teams has three Romanian
	// stop words, the English one five English ones.
	if code, ok := vote(&score, least, words); ok {
		return code
	}
	if code, ok := vote(&withNames, least, words); ok {
		return code
	}
	return fallback
}
