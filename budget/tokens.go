package budget

import (
	"strings"
	"sync"

	"github.com/tiktoken-go/tokenizer/codec"
)

// Encoding names the tokenizer Count uses.
const Encoding = "cl100k_base"

var cl100k = sync.OnceValue(func() *codec.Codec { return codec.NewCl100kBase() })

// Count returns the number of cl100k_base tokens of s (see the package
// comment: an estimate for other models).
func Count(s string) int {
	if s == "" {
		return 0
	}
	n, err := cl100k().Count(s)
	if err != nil {
		// Only the strict UTF-8 mode fails, and it is not set: fall back
		// to the usual four bytes per token rather than undercount.
		return (len(s) + 3) / 4
	}
	return n
}

// lineCosts returns the tokens of each line of text (its line end
// included; a token spanning lines counts for the line it starts in) and
// their sum, from one pass of the tokenizer: a pass per line would cost
// its set-up once per line.
func lineCosts(lines []string) ([]int, int) {
	text := strings.Join(lines, "\n") + "\n"
	costs := make([]int, len(lines))
	_, toks, err := cl100k().Encode(text)
	if err != nil {
		return perLine(lines)
	}
	line, at, next := 0, 0, len(lines[0])+1 // next: offset where line+1 starts
	for _, tok := range toks {
		for line < len(lines)-1 && at >= next {
			line++
			next += len(lines[line]) + 1
		}
		costs[line]++
		at += len(tok)
	}
	if at != len(text) { // the tokens do not spell the text: count line by line
		return perLine(lines)
	}
	return costs, len(toks)
}

func perLine(lines []string) ([]int, int) {
	costs := make([]int, len(lines))
	total := 0
	for i, l := range lines {
		costs[i] = Count(l + "\n")
		total += costs[i]
	}
	return costs, total
}
