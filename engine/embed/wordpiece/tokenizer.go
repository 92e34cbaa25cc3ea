package wordpiece

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Options are the tokenizer's settings, as a model's tokenizer.json
// (normalizer BertNormalizer, model WordPiece) gives them.
type Options struct {
	Lowercase    bool // lower-case the text
	StripAccents bool // drop nonspacing marks after canonical decomposition
	ChineseChars bool // make each CJK ideograph a word of its own
	CleanText    bool // remove control characters, map whitespace to spaces
	// MaxWordChars is the length, in characters, past which a word is the
	// unknown token (100 in BERT; at most MaxWordCharsLimit).
	MaxWordChars int
	Prefix       string   // marks a piece inside a word ("##")
	Unknown      string   // the unknown token ("[UNK]")
	Specials     []string // tokens matched in the raw text before anything else ("[CLS]", …)
}

// MaxWordCharsLimit bounds Options.MaxWordChars.
const MaxWordCharsLimit = 256

// BERT is the uncased BERT tokenizer's configuration, as BertTokenizer
// defaults it (do_lower_case, strip_accents following it).
func BERT() Options {
	return Options{
		Lowercase: true, StripAccents: true, ChineseChars: true, CleanText: true,
		MaxWordChars: 100, Prefix: "##", Unknown: "[UNK]",
		Specials: []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"},
	}
}

// Tokenizer turns text into token ids. It is immutable and safe for
// concurrent use.
type Tokenizer struct {
	vocab      *Vocab
	opt        Options
	unk        int
	prefixHash uint64 // FNV-1a state after the prefix
	ascii      [utf8.RuneSelf]uint8
	specials   []special
	firstByte  [256]bool // first bytes of the specials
}

type special struct {
	text string
	id   int
}

// New returns a tokenizer over vocab. The unknown token and every special
// must be in the vocabulary.
func New(vocab *Vocab, opt Options) (*Tokenizer, error) {
	if opt.MaxWordChars < 1 || opt.MaxWordChars > MaxWordCharsLimit {
		return nil, fmt.Errorf("max word length %d: want 1 to %d", opt.MaxWordChars, MaxWordCharsLimit)
	}
	unk, ok := vocab.ID(opt.Unknown)
	if !ok {
		return nil, fmt.Errorf("unknown token %q is not in the vocabulary", opt.Unknown)
	}
	t := &Tokenizer{vocab: vocab, opt: opt, unk: unk, ascii: asciiClasses(opt.CleanText)}
	t.prefixHash = hashString(fnvOffset, opt.Prefix)
	for _, s := range opt.Specials {
		id, ok := vocab.ID(s)
		if !ok || s == "" {
			return nil, fmt.Errorf("special token %q is not in the vocabulary", s)
		}
		t.specials = append(t.specials, special{s, id})
		t.firstByte[s[0]] = true
	}
	return t, nil
}

// Vocab is the tokenizer's vocabulary.
func (t *Tokenizer) Vocab() *Vocab { return t.vocab }

// Unknown is the id of the unknown token.
func (t *Tokenizer) Unknown() int { return t.unk }

// word is the normalized word being collected.
type word struct {
	buf   [4*MaxWordCharsLimit + utf8.UTFMax]byte
	n     int // bytes in buf
	chars int // characters, counted past the buffer's end too
}

func (w *word) addByte(c byte) {
	if w.n < len(w.buf) {
		w.buf[w.n] = c
		w.n++
	}
	w.chars++
}

func (w *word) addRune(r rune) {
	if w.n+utf8.UTFMax <= len(w.buf) {
		w.n += utf8.EncodeRune(w.buf[w.n:], r)
	} else {
		w.n = len(w.buf) // too long: the word will be unknown
	}
	w.chars++
}

// Append appends the ids of text's tokens to dst, without the model's
// special tokens around them. Bytes that are not UTF-8 count as U+FFFD.
func (t *Tokenizer) Append(dst []int, text string) []int {
	var w word
	for i := 0; i < len(text); {
		c := text[i]
		if t.firstByte[c] {
			if s, ok := t.special(text[i:]); ok {
				dst = t.flush(dst, &w)
				dst = append(dst, s.id)
				i += len(s.text)
				continue
			}
		}
		if c < utf8.RuneSelf {
			i++
			switch t.ascii[c] {
			case asciiWord:
				if t.opt.Lowercase && 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				w.addByte(c)
			case asciiSpace:
				dst = t.flush(dst, &w)
			case asciiPunct:
				dst = t.flush(dst, &w)
				w.addByte(c)
				dst = t.flush(dst, &w)
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		i += n
		dst = t.addRune(dst, &w, r)
	}
	return t.flush(dst, &w)
}

// special returns the longest special token text starts with.
func (t *Tokenizer) special(text string) (special, bool) {
	best, ok := special{}, false
	for _, s := range t.specials {
		if strings.HasPrefix(text, s.text) && len(s.text) > len(best.text) {
			best, ok = s, true
		}
	}
	return best, ok
}

// addRune normalizes a character beyond ASCII into the word, or ends it.
func (t *Tokenizer) addRune(dst []int, w *word, r rune) []int {
	if t.opt.CleanText {
		if r == utf8.RuneError || isControl(r) {
			return dst
		}
		if isSpace(r) {
			return t.flush(dst, w)
		}
	}
	cjk := t.opt.ChineseChars && isChinese(r)
	if cjk {
		dst = t.flush(dst, w)
	}
	if !t.opt.StripAccents {
		dst = t.addNormalized(dst, w, r)
	} else {
		d, n := decompose(r)
		for _, m := range d[:n] {
			if m < utf8.RuneSelf || !isMark(m) {
				dst = t.addNormalized(dst, w, m)
			}
		}
	}
	if cjk {
		dst = t.flush(dst, w)
	}
	return dst
}

// addNormalized lower-cases r (as the options say) and adds it to the
// word, or ends the word if it is whitespace or punctuation.
func (t *Tokenizer) addNormalized(dst []int, w *word, r rune) []int {
	if t.opt.Lowercase {
		if r == 'İ' { // the one character whose lower case is two
			w.addByte('i')
			r = '\u0307'
		} else {
			r = unicode.ToLower(r)
		}
	}
	switch {
	case isSpace(r):
		return t.flush(dst, w)
	case isPunct(r):
		dst = t.flush(dst, w)
		w.addRune(r)
		return t.flush(dst, w)
	}
	w.addRune(r)
	return dst
}

// flush appends the word's pieces and empties it.
func (t *Tokenizer) flush(dst []int, w *word) []int {
	if w.chars == 0 {
		return dst
	}
	if w.chars > t.opt.MaxWordChars {
		dst = append(dst, t.unk)
	} else {
		dst = t.pieces(dst, w.buf[:w.n])
	}
	w.n, w.chars = 0, 0
	return dst
}

// pieces appends the greedy longest-match-first pieces of word, or the
// unknown token if some part of it matches no piece.
func (t *Tokenizer) pieces(dst []int, word []byte) []int {
	mark := len(dst)
	for start := 0; start < len(word); {
		end, id := t.longestPiece(word, start)
		if end < 0 {
			return append(dst[:mark], t.unk)
		}
		dst = append(dst, id)
		start = end
	}
	return dst
}

// maxHashed bounds the pieces whose hashes longestPiece keeps; a longer
// candidate is hashed on its own.
const maxHashed = 64

// longestPiece returns the end and the id of the longest vocabulary piece
// of word at start (with the prefix unless start is 0), end -1 if none.
// The hashes of all candidates are the prefixes of one FNV-1a pass.
func (t *Tokenizer) longestPiece(word []byte, start int) (end, id int) {
	h, prefix := uint64(fnvOffset), ""
	if start > 0 {
		h, prefix = t.prefixHash, t.opt.Prefix
	}
	end = min(len(word), start+t.vocab.longest)
	var hs [maxHashed + 1]uint64 // hs[k]: hash of word[start:start+k]
	n := min(end-start, maxHashed)
	hs[0] = h
	for k := range n {
		hs[k+1] = (hs[k] ^ uint64(word[start+k])) * fnvPrime
	}
	for end < len(word) && !utf8.RuneStart(word[end]) {
		end--
	}
	for ; end > start; end = prevStart(word, start, end) {
		he := hs[min(end-start, n)]
		if end-start > n {
			he = hashBytes(h, word[start:end])
		}
		if id, ok := t.vocab.lookup(he, prefix, word[start:end]); ok {
			return end, id
		}
	}
	return -1, 0
}

// prevStart is the start of the character before end, not before start.
func prevStart(word []byte, start, end int) int {
	end--
	for end > start && !utf8.RuneStart(word[end]) {
		end--
	}
	return end
}

var errNotWordPiece = errors.New("not a WordPiece tokenizer")
