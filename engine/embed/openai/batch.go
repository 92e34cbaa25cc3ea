package openai

import (
	"math"
	"strings"
	"unicode/utf8"
)

// span is one request's share of the input: inputs[start:end].
type span struct {
	start, end int
}

// estimateTokens is the cheap token estimate used for budgeting:
// ceil(bytes/4).
func estimateTokens(s string) int {
	return (len(s) + 3) / 4
}

// truncate cuts s to at most maxTokens estimated tokens, at a UTF-8
// boundary.
func truncate(s string, maxTokens int) string {
	maxBytes := maxTokens * 4
	if len(s) <= maxBytes {
		return s
	}
	// Back up to the start of the rune that crosses the limit; invalid
	// UTF-8 with no rune start nearby is cut at the limit.
	for cut := maxBytes; cut > 0 && cut > maxBytes-utf8.UTFMax; cut-- {
		if utf8.RuneStart(s[cut]) {
			return s[:cut]
		}
	}
	return s[:maxBytes]
}

// inputCap is the per-input budget in estimated tokens: MaxInputTokens,
// or less when a whole request may hold fewer tokens than that.
func (e *Embedder) inputCap() int {
	return min(e.cfg.MaxInputTokens, e.cfg.MaxBatchTokens)
}

// pieces is the input as sent: every text within the per-input budget
// becomes one input, every longer one several, cut at whitespace where
// possible. owner[i] is the text input i belongs to.
type pieces struct {
	inputs []string
	owner  []int
	split  int // texts cut into more than one input
}

func (e *Embedder) split(texts []string) pieces {
	limit := e.inputCap()
	p := pieces{inputs: make([]string, 0, len(texts)), owner: make([]int, 0, len(texts))}
	for i, t := range texts {
		if estimateTokens(t) <= limit {
			p.inputs, p.owner = append(p.inputs, t), append(p.owner, i)
			continue
		}
		p.split++
		for t != "" {
			head := cutAt(t, limit)
			p.inputs, p.owner = append(p.inputs, head), append(p.owner, i)
			t = t[len(head):]
		}
	}
	return p
}

// cutAt returns the longest prefix of s within maxTokens estimated tokens,
// ending after a newline or space in its second half when there is one.
func cutAt(s string, maxTokens int) string {
	head := truncate(s, maxTokens)
	if len(head) == len(s) {
		return s
	}
	if head == "" { // a single rune over the budget: send it alone
		_, n := utf8.DecodeRuneInString(s)
		return s[:n]
	}
	if k := strings.LastIndexAny(head, "\n "); k >= len(head)/2 {
		return head[:k+1]
	}
	return head
}

// join turns the vectors of the inputs back into one per text: a text
// sent whole keeps its vector, a split one gets the mean of its pieces'
// vectors weighted by their length, normalized again.
func (p pieces) join(n int, vecs [][]float32) [][]float32 {
	if p.split == 0 {
		return vecs
	}
	out := make([][]float32, n)
	sums := make([][]float64, n)
	for i, v := range vecs {
		o := p.owner[i]
		if sums[o] == nil {
			sums[o] = make([]float64, len(v))
		}
		w := float64(len(p.inputs[i]))
		for j, x := range v {
			sums[o][j] += w * float64(x)
		}
	}
	for o, s := range sums {
		var norm float64
		for _, x := range s {
			norm += x * x
		}
		norm = math.Sqrt(norm)
		v := make([]float32, len(s))
		for j, x := range s {
			v[j] = float32(x / norm)
		}
		out[o] = v
	}
	return out
}

// plan splits the inputs into requests of at most BatchSize inputs and
// at most MaxBatchTokens estimated tokens. Every input fits the budget on
// its own (split saw to that), so every span holds at least one input.
func (e *Embedder) plan(inputs []string) []span {
	var spans []span
	cur, tokens := span{}, 0
	for i, in := range inputs {
		t := estimateTokens(in)
		if cur.end > cur.start && (cur.end-cur.start == e.cfg.BatchSize || tokens+t > e.cfg.MaxBatchTokens) {
			spans = append(spans, cur)
			cur, tokens = span{start: i, end: i}, 0
		}
		cur.end = i + 1
		tokens += t
	}
	if cur.end > cur.start {
		spans = append(spans, cur)
	}
	return spans
}

// Batches reports how many requests Embed(ctx, texts) would make, for a
// progress line such as "embedding N chunks in M batches".
func (e *Embedder) Batches(texts []string) int {
	return len(e.plan(e.split(texts).inputs))
}
