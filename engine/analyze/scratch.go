package analyze

import "github.com/blevesearch/bleve/v2/analysis"

// Scratch is token storage that AnalyzeReusing reuses from one call to
// the next, and the memory of the stems it computed (stemCache). Its zero
// value is ready; it is not safe for concurrent use.
type Scratch struct {
	out   analysis.TokenStream
	slab  []analysis.Token
	stems stemCache
	strs  []string
}

// maxScratchTokens bounds the tokens a Scratch keeps between calls.
const maxScratchTokens = 8192

// keep makes s hold room for a stream as long as out next time: its token
// structs are the previous stream's, overwritten. strs is the stream's
// Terms.
func (s *Scratch) keep(out analysis.TokenStream, strs []string) {
	s.out, s.strs = out[:0], strs
	if n := len(out); n > len(s.slab) && n <= maxScratchTokens {
		s.slab = make([]analysis.Token, n+n/4)
	}
}

// Terms are the terms of the stream AnalyzeReusing last returned, as
// strings where the analysis had them already (stems from the cache),
// else "": Terms()[i] is string(stream[i].Term) or "". Counting terms with
// them as map keys saves a string allocation a distinct term. They are
// valid until the next call with s; empty after an analyzer of another
// package.
func (s *Scratch) Terms() []string { return s.strs }

// AnalyzeReusing is a.Analyze(input), the same tokens, with the token
// structs and the stream taken from s instead of allocated: the stream is
// valid until the next call with s, the terms (in input or memory of
// their own) for as long as Analyze's. An analyzer of another package is
// called as it is.
func AnalyzeReusing(a analysis.Analyzer, input []byte, s *Scratch) analysis.TokenStream {
	if ours, ok := a.(*analyzer); ok {
		return ours.analyze(input, s)
	}
	s.strs = s.strs[:0]
	return a.Analyze(input)
}
