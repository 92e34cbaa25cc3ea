package openai

import "unicode/utf8"

// span is one request's share of the input: texts[start:end].
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

// inputCap is the per-input cap in estimated tokens: MaxInputTokens, or
// less when a whole request may hold fewer tokens than that.
func (e *Embedder) inputCap() int {
	return min(MaxInputTokens, e.cfg.MaxBatchTokens)
}

// prepare truncates every text to the per-input cap.
func (e *Embedder) prepare(texts []string) []string {
	limit := e.inputCap()
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = truncate(t, limit)
	}
	return out
}

// plan splits prepared inputs into requests of at most BatchSize inputs and
// at most MaxBatchTokens estimated tokens. Every input fits the budget on
// its own (prepare saw to that), so every span holds at least one input.
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
	return len(e.plan(e.prepare(texts)))
}
