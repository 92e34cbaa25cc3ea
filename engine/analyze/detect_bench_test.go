package analyze

import (
	"strings"
	"testing"
)

// englishProse is text like the generated benchmark corpus's: capitalized
// sentences of common English words, few of them stop words.
var englishProse = strings.Repeat("Stage fine cost magazine know improve happy hair plant understand. Leader send physical sister site blood present move structure.\n\nQuickly charge data short scene catch standard significant ahead. Because story loss leader treatment. Building time down country control social color.\n\n", 8)

// BenchmarkGuess is the detection a chunk of English prose gets.
func BenchmarkGuess(b *testing.B) {
	b.SetBytes(int64(len(englishProse)))
	for b.Loop() {
		Guess(englishProse)
	}
}
