// Package budget sizes search answers to a token budget: it counts tokens
// with the cl100k_base BPE (OpenAI's GPT-4 family encoding, tables embedded
// in github.com/tiktoken-go/tokenizer, so nothing is fetched at run time)
// and fits ranked passages into a budget, trimming a passage to its
// best-matching lines, with a marker where lines were left out, when that
// lets more of the ranking be shown.
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
