package analyze

import (
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/go-porterstemmer"
	"github.com/blevesearch/snowballstem"
)

// analyzer is the analysis chain described in the package documentation,
// run in one pass: each token of the tokenizer (tokenize.go, bleve's unicode
// tokenizer made faster) goes through identifier splitting (ident.go),
// lower, possessive, the stop list and the stemmer before the next one is
// read. Every step after identifier splitting works on each token by
// itself, so this yields the same stream as running the steps as filters
// one after another over the whole stream (reference_test.go defines those
// filters; equiv_test.go checks the two agree). Tokens come from a few
// shared arrays instead of one allocation each, and the stem is written over
// the term.
type analyzer struct {
	stop *stopWords
	// english: the English possessive step and Porter stemming.
	english bool
	// snowball, when set, is the language's Snowball stemmer (lang.go).
	snowball func(*snowballstem.Env) bool
	// steps are a language's other steps (chains.go), or nil.
	steps *steps
}

var _ analysis.Analyzer = (*analyzer)(nil)

//semguard:begin analyzer-chain

// Analyze implements analysis.Analyzer. It may modify input in place.
func (a *analyzer) Analyze(input []byte) analysis.TokenStream { return a.analyze(input, nil) }

// analyze is Analyze with the token structs taken from s when s is not nil
// (AnalyzeReusing).
func (a *analyzer) analyze(input []byte, s *Scratch) analysis.TokenStream {
	r := run{stop: a.stop, english: a.english, snowball: a.snowball, steps: a.steps, size: len(input)}
	if s != nil {
		r.out, r.slab, r.stems, r.ids = s.out[:0], s.slab, &s.stems, s.ids[:0]
		s.stems.trim()
	}
	if a.steps != nil && a.steps.zwnj {
		separateZWNJ(input)
	}
	z := tokenizer{data: input}
	pos, shift := 0, 0
	for {
		term, start, typ, ascii, ok := z.next()
		if !ok {
			break
		}
		pos++
		tok := analysis.Token{Term: term, Start: start, End: start + len(term), Position: pos + shift, Type: typ}

		// Identifier splitting.
		var parts []span
		if typ == analysis.AlphaNumeric && mayNeedSplit(term) {
			if ascii {
				parts = appendIdentPartsASCII(r.spans[:0], term)
			} else {
				parts = appendIdentParts(r.spans[:0], term)
			}
			r.spans = parts
			if len(parts) == 1 && parts[0].start == 0 && parts[0].end == len(term) {
				parts = nil
			}
		}
		// The parts copy their bytes before the whole token is lower-cased
		// and stemmed in place: lower-casing may shorten a rune ("İ" to
		// "i"), which would garble parts sharing the token's bytes.
		r.parts = r.parts[:0]
		for k, p := range parts {
			if p.end-p.start > MaxTermBytes {
				continue
			}
			r.parts = append(r.parts, analysis.Token{
				Term:     r.copyBytes(term[p.start:p.end]),
				Start:    tok.Start + p.start,
				End:      tok.Start + p.end,
				Position: tok.Position + k,
				Type:     tok.Type,
			})
			if !ascii { // ASCII has no typographic apostrophes
				last := &r.parts[len(r.parts)-1]
				last.Term = foldApostrophes(last.Term)
			}
		}
		if len(term) <= MaxTermBytes {
			if !ascii {
				tok.Term = foldApostrophes(tok.Term)
			}
			r.emit(tok)
		}
		for _, p := range r.parts {
			r.emit(p)
		}
		if len(parts) > 1 {
			shift += len(parts) - 1
		}
	}
	if s != nil {
		s.keep(r.out, r.ids)
	}
	return r.out
}

//semguard:end analyzer-chain

// run is the state of one Analyze call.
type run struct {
	stop     *stopWords
	english  bool
	snowball func(*snowballstem.Env) bool
	steps    *steps
	one      *[1]*analysis.Token // for the bleve filters of steps, made on first use
	env      *snowballstem.Env
	size     int // input bytes, to size allocations
	out      analysis.TokenStream
	slab     []analysis.Token // unused tokens for out
	arena    []byte           // room for the bytes of identifier parts
	spans    []span
	parts    []analysis.Token
	runes    []rune     // for stemming non-ASCII terms
	stems    *stemCache // the Scratch's, or nil
	ids      []int32    // with stems: the stem ids of out's terms, -1 where not cached
	id       int32      // the stem id of the term stemASCII last returned, or -1
}

// emit runs the steps after identifier splitting on t and appends it to
// the output unless it is a stop word.
func (r *run) emit(t analysis.Token) {
	r.id = -1
	var term []byte
	if r.steps != nil {
		if term = r.stepsBefore(t.Term); len(term) == 0 {
			return
		}
	} else {
		term = lower(t.Term)
	}
	if r.english {
		term = possessive(term)
	}
	if r.stop.has(term) {
		return
	}
	switch {
	case r.steps != nil:
		if term = r.stepsAfter(term); len(term) == 0 {
			return
		}
		t.Term = term
	case r.snowball != nil:
		t.Term = r.stemSnowball(term)
	default:
		t.Term = r.stem(term)
	}
	if len(r.slab) == 0 {
		r.grow()
	}
	slot := &r.slab[0]
	r.slab = r.slab[1:]
	*slot = t
	r.out = append(r.out, slot)
	if r.stems != nil {
		r.ids = append(r.ids, r.id)
	}
}

// stepsBefore is what a language's steps do before the stop list:
// lower-casing, the apostrophe, folding and filters.
func (r *run) stepsBefore(term []byte) []byte {
	s := r.steps
	if s.lower != nil {
		term = s.lower(term)
	} else {
		term = lower(term)
	}
	if s.apostrophe {
		term = cutApostrophe(term)
	}
	if s.fold != nil {
		term = s.fold(term)
	}
	if s.porter && isASCII(term) {
		return term
	}
	if len(s.before) > 0 && r.stop.has(term) {
		// A stop word as written, before normalization: a list may
		// hold a word only in its written form.
		return nil
	}
	for _, f := range s.before {
		if len(term) == 0 {
			break
		}
		term = r.filter(f, term)
	}
	return term
}

// stepsAfter is what a language's steps do after the stop list: Porter
// for ASCII terms where the steps say so, else the filters and the
// Snowball stemmer.
func (r *run) stepsAfter(term []byte) []byte {
	s := r.steps
	if s.porter && isASCII(term) {
		return r.stemASCII(term)
	}
	for _, f := range s.after {
		if len(term) == 0 {
			return nil
		}
		term = r.filter(f, term)
	}
	if r.snowball != nil && len(term) > 0 {
		term = r.stemSnowball(term)
	}
	if s.prefix > 0 {
		term = truncate(term, s.prefix)
	}
	return term
}

func (r *run) filter(f analysis.TokenFilter, term []byte) []byte {
	if r.one == nil {
		r.one = &[1]*analysis.Token{{}}
	}
	return filterTerm(f, r.one, term)
}

// grow makes room for more tokens, guessing how many the rest of the input
// yields from what it yielded so far (about one in eight bytes at first).
func (r *run) grow() {
	n := r.size/8 + 8
	if emitted := len(r.out); emitted > 0 {
		last := r.out[emitted-1].End
		if last < 1 {
			last = 1
		}
		n = (r.size-last)*emitted/last + 8
	}
	n = max(8, min(n, 1024))
	r.slab = make([]analysis.Token, n)
	if r.out == nil {
		// Room for one token in five bytes, as in code, where
		// identifiers add their parts; prose has one in ten or so.
		r.out = make(analysis.TokenStream, 0, min(r.size/5+8, 4096))
	}
}

// copyBytes returns a copy of b that nothing else shares.
func (r *run) copyBytes(b []byte) []byte {
	if cap(r.arena)-len(r.arena) < len(b) {
		r.arena = make([]byte, 0, max(len(b), min(r.size, 4096)))
	}
	from := len(r.arena)
	r.arena = append(r.arena, b...)
	return r.arena[from:len(r.arena):len(r.arena)]
}

// possessive is bleve's possessive_en filter for one term: it removes a
// final 's, ’s or ＇s (either case of s).
func possessive(term []byte) []byte {
	last, lastSize := utf8.DecodeLastRune(term)
	if last == 's' || last == 'S' {
		prev, prevSize := utf8.DecodeLastRune(term[:len(term)-lastSize])
		if prev == '’' || prev == '\'' || prev == '＇' {
			return term[:len(term)-lastSize-prevSize]
		}
	}
	return term
}

// stem is bleve's stemmer_porter filter for one term, without allocating:
// ASCII terms go to stemASCII, others take bleve's path (bytes.Runes, the
// stemmer, analysis.BuildTermFromRunes) with a reused rune buffer. The stem
// is written over term: Porter's rules only cut runes off the end and
// replace ASCII letters with ASCII letters, so it fits unless term holds
// invalid UTF-8 (each bad byte becomes a three-byte U+FFFD), and then a new
// slice is allocated as bleve does.
func (r *run) stem(term []byte) []byte {
	if isASCII(term) {
		return r.stemASCII(term)
	}
	runes := r.runes[:0]
	for i := 0; i < len(term); {
		c, w := utf8.DecodeRune(term[i:])
		runes = append(runes, c)
		i += w
	}
	r.runes = runes
	stemmed := porterstemmer.StemWithoutLowerCasing(runes)
	n := 0
	for _, c := range stemmed {
		n += utf8.RuneLen(c)
	}
	if n > len(term) {
		return analysis.BuildTermFromRunes(stemmed)
	}
	n = 0
	for _, c := range stemmed {
		n += utf8.EncodeRune(term[n:], c)
	}
	return term[:n]
}

// stemASCII is stemASCII(term), from the Scratch's cache when there is
// one.
func (r *run) stemASCII(term []byte) []byte {
	if r.stems == nil {
		return stemASCII(term)
	}
	stem, id := r.stems.stem(term)
	r.id = id
	return stem
}

// stemSnowball stems term with the language's Snowball stemmer, in place
// when the stem is no longer than the term.
func (r *run) stemSnowball(term []byte) []byte {
	if r.env == nil {
		r.env = snowballstem.NewEnv(string(term))
	} else {
		r.env.SetCurrent(string(term))
	}
	r.snowball(r.env)
	stem := r.env.Current()
	if len(stem) > len(term) {
		return []byte(stem)
	}
	return term[:copy(term, stem)]
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// stopWords is bleve's stop_tokens filter's lookup, with a quick test in
// front: most terms that are not stop words have a length no stop word
// starting with the same byte has. The chains of English and of the
// languages of the compiled-in stop table (stoptable.go: bleve's lists,
// English and others) look a term up there by its languages' bits (mask),
// so that no map is built: building a chain's map from bleve's text lists
// cost a cold query process a fifth of its instructions. The other chains
// (scripted) look it up in words.
type stopWords struct {
	mask    uint16 // > 0: the term's stopMask shares a bit with it
	words   analysis.TokenMap
	lengths [256]uint64 // bit n of lengths[c]: a stop word of n bytes starts with c
	all     bool        // some stop word is empty or too long for lengths
}

func newStopWords(words analysis.TokenMap) *stopWords {
	s := &stopWords{words: words}
	for w := range words {
		if len(w) == 0 || len(w) >= 64 {
			s.all = true
			continue
		}
		s.lengths[w[0]] |= 1 << len(w)
	}
	return s
}

// tableStopWords is the stop list of the languages whose bits (stopMask's:
// bit 0 English, bit i+1 others[i]) mask holds, from the stop table.
func tableStopWords(mask uint16) *stopWords { return &stopWords{mask: mask} }

func (s *stopWords) has(term []byte) bool {
	if s.mask != 0 {
		return len(term) > 0 && stopMask(term)&s.mask != 0
	}
	if !s.all && (len(term) == 0 || len(term) >= 64 || s.lengths[term[0]]&(1<<len(term)) == 0) {
		return false
	}
	_, ok := s.words[string(term)]
	return ok
}
