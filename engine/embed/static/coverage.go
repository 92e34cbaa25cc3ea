package static

import (
	"strings"
	"unicode"
)

// Coverage is the share of text's words (runs of letters and digits, as
// the tokenizer cuts them) that are one token of the vocabulary, 0 when it
// has none. A word cut into pieces ("qwxz" → q ##w ##x ##z) or unknown
// gets a vector that says little about its meaning: a query made only of
// such words ("qwxz vbnm") finds noise.
func (e *Embedder) Coverage(text string) float64 {
	v := e.tok.Vocab()
	ids := e.tok.Append(nil, text)
	known, words := 0, 0
	for i := 0; i < len(ids); {
		j := i + 1
		for j < len(ids) && strings.HasPrefix(v.Token(ids[j]), "##") {
			j++
		}
		if strings.IndexFunc(v.Token(ids[i]), isWordRune) >= 0 || ids[i] == e.tok.Unknown() {
			words++
			if j == i+1 && ids[i] != e.tok.Unknown() {
				known++
			}
		}
		i = j
	}
	if words == 0 {
		return 0
	}
	return float64(known) / float64(words)
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
