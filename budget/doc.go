// Package budget sizes search answers to a token budget: it counts tokens
// with the cl100k_base BPE (OpenAI's GPT-4 family encoding, tables embedded
// in github.com/tiktoken-go/tokenizer, so nothing is fetched at run time)
// and fits ranked passages into a budget, best first: each whole when it
// fits its share, else cut to one contiguous run of lines around its
// best-matching ones (cut inside a line, at a sentence or word boundary,
// when one line is longer than the share), what a passage leaves unused
// flowing on to the next (fit.go, window.go).
//
// The counts are exact for cl100k_base and an estimate for any other
// model's tokenizer (Claude's, Gemini's and o200k_base differ by a few per
// cent on English prose, more on code and other scripts): callers should
// leave a margin.
//
// It owns token counting and the choice of what to show; it knows nothing
// of indexes or transports and must never import engine (callers map
// their results to Passage).
package budget
