package local

import (
	"context"
	"fmt"

	index "github.com/blevesearch/bleve_index_api"

	"github.com/autorag/autorag/engine/analyze"
)

// queryTerm is one term of an analyzed query and the languages whose
// analysis of the query produced it (bit i: genLangs.codes[i]).
type queryTerm struct {
	term  string
	langs uint64
}

// allLangs marks a term that scores in chunks of every language.
const allLangs = ^uint64(0)

func (q queryTerm) has(lang int) bool { return q.langs&(1<<lang) != 0 }

// queryTerms analyzes a query so that it matches what each language's
// chunks stored. With multilingual analysis the query is analyzed in every
// language the generation holds, and each term scores only in the chunks
// of the languages whose analysis produced it: a German chunk is matched
// by the German analysis of the query, an English one by the English
// analysis, and no language's terms leak into another's chunks. This beat
// both the union of every language's terms over all chunks and the query's
// own detected language on XQuAD-de, and cannot misread an English query
// as French (docs/QUALITY.md). Every chain drops the English stop words,
// so that "what" and "is" of an English query do not become rare, heavily
// weighted terms among Romanian chunks. Without multilingual analysis, or
// when the generation holds one language, the terms score everywhere.
func (s *searcher) queryTerms(ctx context.Context, ls *State, text string) ([]queryTerm, error) {
	if !ls.multilingual {
		return everywhere(analyze.Terms(text)), nil
	}
	gl, err := ls.languages(ctx, s.r)
	if err != nil {
		return nil, err
	}
	if len(gl.codes) <= 1 {
		code := analyze.English
		if len(gl.codes) == 1 {
			code = gl.codes[0]
		}
		return everywhere(analyze.TermsIn(text, []string{code})), nil
	}
	s.langs = gl
	var out []queryTerm
	at := map[string]int{}
	for i, code := range gl.codes {
		for _, t := range analyze.TermsIn(text, []string{code}) {
			j, ok := at[t]
			if !ok {
				j = len(out)
				at[t] = j
				out = append(out, queryTerm{term: t})
			}
			out[j].langs |= 1 << i
		}
	}
	return out, nil
}

func everywhere(terms []string) []queryTerm {
	out := make([]queryTerm, len(terms))
	for i, t := range terms {
		out[i] = queryTerm{term: t, langs: allLangs}
	}
	return out
}

// docLang is the index in s.langs.codes of chunk n's language.
func (s *searcher) docLang(n uint64) int {
	if n < uint64(len(s.langs.minority)) {
		if l := s.langs.minority[n]; l != 0 {
			return int(l) - 1
		}
	}
	return s.langs.majority
}

// genLangs are the analysis languages of a generation's chunks: their
// codes, which is the most common, and the language of every other chunk
// (minority[n] is 1 + the code index of chunk n; 0 = the majority).
type genLangs struct {
	codes    []string
	counts   []uint64 // chunks of each language
	majority int
	minority []uint8
}

// maxLangs bounds the languages of one generation (queryTerm.langs is a
// 64-bit set; analyze has far fewer).
const maxLangs = 63

// languages reads the generation's languages once, from the language
// field: its dictionary, and the postings of every language but the most
// common one.
func (ls *State) languages(ctx context.Context, r index.IndexReader) (*genLangs, error) {
	ls.langOnce.Do(func() { ls.langs, ls.langErr = readLanguages(ctx, r) })
	return ls.langs, ls.langErr
}

func readLanguages(ctx context.Context, r index.IndexReader) (*genLangs, error) {
	codes, err := langCodes(r)
	if err != nil {
		return nil, err
	}
	gl := &genLangs{}
	for _, code := range codes {
		n, err := langChunks(ctx, r, code)
		if err != nil {
			return nil, err
		}
		if n == 0 { // every chunk of it deleted, still in a segment
			continue
		}
		if len(gl.codes) == maxLangs {
			return nil, fmt.Errorf("languages: more than %d", maxLangs)
		}
		if len(gl.counts) == 0 || n > gl.counts[gl.majority] {
			gl.majority = len(gl.codes)
		}
		gl.codes = append(gl.codes, code)
		gl.counts = append(gl.counts, n)
	}
	for i, code := range gl.codes {
		if i == gl.majority || len(gl.codes) == 1 {
			continue
		}
		if err := gl.readPostings(ctx, r, code, uint8(i+1)); err != nil {
			return nil, err
		}
	}
	return gl, nil
}

// langCodes is the terms of the language field's dictionary. Only the
// terms: a dictionary entry's count is no chunk count. It counts deleted
// chunks still in a segment, and zap (v16.3.4) reuses one postings list
// across a dictionary walk without clearing its one-hit fields, so in a
// segment where a language of one chunk comes first the next language
// counts 1: the merged SciFact index counted 1 English chunk of 5,690,
// every English term's idf went negative and bm25 nDCG@10 fell from
// 0.7057 to 0.0324.
func langCodes(r index.IndexReader) ([]string, error) {
	d, err := r.FieldDict(fieldLang)
	if err != nil {
		return nil, fmt.Errorf("languages: %w", err)
	}
	defer d.Close()
	var codes []string
	for {
		e, err := d.Next()
		if err != nil {
			return nil, fmt.Errorf("languages: %w", err)
		}
		if e == nil {
			return codes, nil
		}
		codes = append(codes, e.Term)
	}
}

// langChunks is the number of live chunks in language code: its postings'
// count, which leaves out deleted chunks, as the idf's document counts do.
func langChunks(ctx context.Context, r index.IndexReader, code string) (uint64, error) {
	p, err := openPostings(ctx, r, fieldLang, code, false, "chunks in language")
	if err != nil {
		return 0, err
	}
	defer p.close()
	return p.count(), nil
}

func (gl *genLangs) readPostings(ctx context.Context, r index.IndexReader, code string, mark uint8) error {
	p, err := openPostings(ctx, r, fieldLang, code, false, "chunks in language")
	if err != nil {
		return err
	}
	defer p.close()
	for {
		d, err := p.next(ctx)
		if err != nil || d == nil {
			return err
		}
		n := internalNum(d.ID)
		if n >= uint64(len(gl.minority)) {
			grown := make([]uint8, max(n+1, 2*uint64(len(gl.minority)), 1024))
			copy(grown, gl.minority)
			gl.minority = grown
		}
		gl.minority[n] = mark
	}
}

// posting is one document of a term's postings, kept until the term's idf
// is known.
type posting struct {
	num  uint64
	tf   uint64
	norm float64
}

// scoreTermIn scores a term of some languages' analysis only in the chunks
// of those languages, with an idf over those chunks alone: English stop
// words are no index terms of English chunks, so over the whole index a
// German chunk's "and" would look rarer than any real word.
func (s *searcher) scoreTermIn(ctx context.Context, qt queryTerm, acc *accumulator) error {
	docs, m, idf, _, err := s.scopedPostings(ctx, qt, s.postings[:0])
	s.postings = docs
	if err != nil {
		return err
	}
	for _, p := range docs {
		acc.add(p.num, m.weight(idf, p.tf, lengthFromNorm(p.norm)))
	}
	return nil
}

// scopedPostings appends to dst the postings of qt in the chunks of its
// languages and returns them with the model and idf over those chunks
// alone (scoreTermIn), and the number of postings read.
func (s *searcher) scopedPostings(ctx context.Context, qt queryTerm, dst []posting) ([]posting, bm25, float64, int, error) {
	m := s.model
	p, err := openPostings(ctx, s.r, fieldBody, qt.term, true, "postings of")
	if err != nil {
		return dst, m, 0, 0, err
	}
	defer p.close()
	for {
		d, err := p.next(ctx)
		if err != nil {
			return dst, m, 0, p.seen, err
		}
		if d == nil {
			break
		}
		if n := internalNum(d.ID); qt.has(s.docLang(n)) {
			dst = append(dst, posting{num: n, tf: d.Freq, norm: d.Norm})
		}
	}
	m.n = float64(s.langs.chunks(qt.langs))
	return dst, m, m.idf(uint64(len(dst))), p.seen, nil
}

// chunks counts the chunks of the languages in set.
func (gl *genLangs) chunks(set uint64) uint64 {
	var n uint64
	for i, c := range gl.counts {
		if set&(1<<i) != 0 {
			n += c
		}
	}
	return n
}
