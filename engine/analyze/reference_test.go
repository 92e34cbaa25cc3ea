package analyze

// The chain of the package documentation as bleve token filters, run one
// after another by referenceAnalyzer (equiv_test.go): the specification the
// one-pass analyzer (chain.go) must match token for token. Nothing outside
// the tests uses them.

import "github.com/blevesearch/bleve/v2/analysis"

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
