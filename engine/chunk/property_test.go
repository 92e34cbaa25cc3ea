package chunk

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// randomLinePool holds the kinds of lines random documents are built from:
// headings, fences, tables, code, prose, white space, multibyte text.
var randomLinePool = [...]string{
	"", "", "", "   ", "\t", "\r",
	"# Title", "## Section two", "### Sub", "#### Deep ###", "    # indented", "#nospace",
	"```", "```go", "~~~", "````",
	"| a | b |", "|---|---|",
	"func main() {", "\treturn nil", "}", "// comment", "@decorator", "class A:",
	"Plain words of prose here.", "Grüße aus Köln — naïve café.", "日本語のテキスト", "\u00a0\u2003",
	"x",
}

// randomDoc builds a document of up to n lines, some of them long.
func randomDoc(r *rand.Rand, n int) string {
	lines := make([]string, r.IntN(n)+1)
	for i := range lines {
		switch r.IntN(12) {
		case 0:
			lines[i] = strings.Repeat("word ", r.IntN(80))
		case 1:
			lines[i] = strings.Repeat("é", r.IntN(200))
		default:
			lines[i] = randomLinePool[r.IntN(len(randomLinePool))]
		}
	}
	return strings.Join(lines, "\n")
}

func TestSplitProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	kinds := []string{KindMarkdown, KindCode, KindText}
	for i := range 3000 {
		text := randomDoc(r, 60)
		o := Options{Size: r.IntN(300) - 10, Overlap: r.IntN(200) - 20}
		if o.Size <= 0 && i%2 == 0 {
			o.Size = 1 + r.IntN(8)
		}
		kind := kinds[i%len(kinds)]
		got := Split(kind, text, o)
		checkChunks(t, text, o, got)
	}
}
