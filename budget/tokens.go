package budget

import (
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
