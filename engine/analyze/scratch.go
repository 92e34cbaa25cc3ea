package analyze

import "github.com/blevesearch/bleve/v2/analysis"

// Scratch is token storage that AnalyzeReusing reuses from one call to
// the next, and the memory of the stems it computed (stemCache). Its zero
// value is ready; it is not safe for concurrent use.
type Scratch struct {
	out   analysis.TokenStream
	slab  []analysis.Token
	stems stemCache
	ids   []int32
}

// maxScratchTokens bounds the tokens a Scratch keeps between calls.
const maxScratchTokens = 8192

// keep makes s hold room for a stream as long as out next time: its token
// structs are the previous stream's, overwritten. ids are the stream's
// StemIDs.
func (s *Scratch) keep(out analysis.TokenStream, ids []int32) {
	s.out, s.ids = out[:0], ids
	if n := len(out); n > len(s.slab) && n <= maxScratchTokens {
		s.slab = make([]analysis.Token, n+n/4)
	}
}

// StemIDs are the ids of the terms of the stream AnalyzeReusing last
// returned, where the analysis had them in its cache of stems, else -1:
// StemIDs()[i] >= 0 means string(stream[i].Term) == Stem(StemIDs()[i]),
// and two tokens with the same id have the same term. Ids are below
// NumStems. Counting terms by id saves a map look-up a token. They are
// valid until the next call with s; empty after an analyzer of another
// package.
func (s *Scratch) StemIDs() []int32 { return s.ids }

// Stem is the term of a stem id.
func (s *Scratch) Stem(id int32) string { return s.stems.stems[id] }

// NumStems is one more than the largest stem id.
func (s *Scratch) NumStems() int { return len(s.stems.stems) }

// AnalyzeReusing is a.Analyze(input), the same tokens, with the token
// structs and the stream taken from s instead of allocated: the stream is
// valid until the next call with s, the terms (in input or memory of
// their own) for as long as Analyze's. An analyzer of another package is
// called as it is.
func AnalyzeReusing(a analysis.Analyzer, input []byte, s *Scratch) analysis.TokenStream {
	if ours, ok := a.(*analyzer); ok {
		return ours.analyze(input, s)
	}
	s.ids = s.ids[:0]
	return a.Analyze(input)
}
