package analyze

// The chain of the package documentation as bleve token filters, run one
// after another by referenceAnalyzer (equiv_test.go): the specification the
// one-pass analyzer (chain.go) must match token for token. Nothing outside
// the tests uses them.

import (
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/segment"
)

// identFilter is step 2 (ident.go): it keeps each token (unless it is
// longer than MaxTermBytes) and emits its parts after it, with typographic
// apostrophes folded.
//
// Positions: the whole token and its first part share a position, the other
// parts take the following positions, and every later token moves along, so
// a phrase such as "user name" matches inside getUserName.
type identFilter struct{}

var _ analysis.TokenFilter = identFilter{}

// Filter implements analysis.TokenFilter. It returns input itself when no
// token changes.
func (identFilter) Filter(input analysis.TokenStream) analysis.TokenStream {
	var out analysis.TokenStream // nil until the first change
	shift := 0
	for i, tok := range input {
		parts := splitIdent(tok)
		keep := len(tok.Term) <= MaxTermBytes
		if out == nil && len(parts) == 0 && keep && !hasTypographicApostrophe(tok.Term) {
			continue // unchanged so far: shift is still 0
		}
		if out == nil {
			out = make(analysis.TokenStream, i, len(input)+len(parts)+8)
			copy(out, input[:i])
		}
		tok.Position += shift
		partToks := partTokens(tok, parts)
		if keep {
			tok.Term = foldApostrophes(tok.Term)
			out = append(out, tok)
		}
		out = append(out, partToks...)
		if len(parts) > 1 {
			shift += len(parts) - 1
		}
	}
	if out == nil {
		return input
	}
	return out
}

// partTokens returns a token for each part short enough to keep, at
// consecutive positions from tok's. The parts get their own copy of the
// bytes: the lower-case filter rewrites terms in place and may shorten a
// rune ("İ" to "i"), which would garble parts that share the whole token's
// bytes.
func partTokens(tok *analysis.Token, parts []span) analysis.TokenStream {
	if len(parts) == 0 {
		return nil
	}
	toks := make([]analysis.Token, len(parts))
	out := make(analysis.TokenStream, 0, len(parts))
	buf := make([]byte, 0, len(tok.Term))
	for k, p := range parts {
		if p.end-p.start > MaxTermBytes {
			continue
		}
		from := len(buf)
		buf = append(buf, tok.Term[p.start:p.end]...)
		t := &toks[k]
		*t = analysis.Token{
			Term:     foldApostrophes(buf[from:len(buf):len(buf)]),
			Start:    tok.Start + p.start,
			End:      tok.Start + p.end,
			Position: tok.Position + k,
			Type:     tok.Type,
		}
		out = append(out, t)
	}
	return out
}

// splitIdent returns the parts of an identifier-like token, or nil when the
// token is a single word (nothing to add).
func splitIdent(tok *analysis.Token) []span {
	if tok.Type != analysis.AlphaNumeric || !mayNeedSplit(tok.Term) {
		return nil
	}
	parts := identParts(tok.Term)
	if len(parts) == 1 && parts[0].start == 0 && parts[0].end == len(tok.Term) {
		return nil
	}
	return parts
}

// identParts returns the words of term (appendIdentParts).
func identParts(term []byte) []span { return appendIdentParts(nil, term) }

// lowerFilter is step 3: it lower-cases terms (lower). It replaces bleve's
// to_lower filter, whose in-place rewrite garbles a term when a rune's lower
// case is shorter than the rune.
type lowerFilter struct{}

var _ analysis.TokenFilter = lowerFilter{}

// Filter implements analysis.TokenFilter.
func (lowerFilter) Filter(input analysis.TokenStream) analysis.TokenStream {
	for _, tok := range input {
		tok.Term = lower(tok.Term)
	}
	return input
}

// scriptTokenizer is step 1: bleve's unicode tokenizer, except that a
// segment of type None starting with a letter (which bleve drops) starts a
// run of its script's letters that is cut into words (script.go). It walks
// the segments as bleve's tokenizer does, one segment.SegmentWords call per
// segment from the rest of the input, and stops where it stops.
type scriptTokenizer struct{}

var _ analysis.Tokenizer = scriptTokenizer{}

// Tokenize implements analysis.Tokenizer.
func (scriptTokenizer) Tokenize(input []byte) analysis.TokenStream {
	out := analysis.TokenStream{}
	rest, off, pos := input, 0, 1
	add := func(term []byte, start int, typ analysis.TokenType) {
		out = append(out, &analysis.Token{Term: term, Start: start, End: start + len(term), Position: pos, Type: typ})
		pos++
	}
	for len(rest) > 0 {
		n, seg, typ, err := segment.SegmentWords(rest, true)
		if err != nil || n < 0 || n > len(rest) || seg == nil {
			break
		}
		if typ == segment.None {
			if c, _ := utf8.DecodeRune(rest); isLetter(c) {
				if words, run := appendScriptWords(nil, rest, c); run > 0 {
					for _, w := range words {
						add(rest[w.start:w.end:w.end], off+w.start, analysis.Ideographic)
					}
					rest, off = rest[run:], off+run
					continue
				}
			}
		} else {
			add(seg, off, convertType(typ))
		}
		rest, off = rest[n:], off+len(seg)
	}
	return out
}
