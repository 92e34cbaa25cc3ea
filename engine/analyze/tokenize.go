package analyze

import (
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/segment"
)

// The tokenizer reproduces bleve's unicode tokenizer (analysis/tokenizer/
// unicode) segment by segment, faster. That tokenizer runs
// segment.SegmentWords, a generated UAX #29 state machine, once per segment,
// each time from the start of the rest of the input with a fresh machine,
// and turns every segment that is not of type None into a token. So the
// segment found at an offset depends only on the input from that offset on,
// and any way of computing it that gives the same answer keeps the token
// stream as it was.
//
// asciiSegment computes the segment directly when every byte that decides it
// is ASCII (most text: prose, code); anything else (a non-ASCII byte inside
// the segment, right after it, or after a MidLetter/MidNum character that
// might join two words) goes to segment.SegmentWords itself. Such bytes are
// never judged here: the machine's tables join bytes in ways that do not
// follow the Unicode data exactly (an invalid lead byte can swallow the
// ASCII byte after it, a None segment followed by an invalid byte stops the
// tokenizer altogether), so the fallback is the only judge of them.

// Word-break classes of ASCII bytes, as in segment's tables (Unicode 8.0
// WordBreakProperty.txt): only these ASCII bytes have a class, every other
// one is Other.
const (
	wbOther       = 0
	wbALetter     = 1  // A-Z a-z
	wbNumeric     = 2  // 0-9
	wbExtendNumLt = 3  // _
	wbMidLetter   = 4  // :
	wbMidNum      = 5  // , ;
	wbMidNumLet   = 6  // .
	wbSingleQuote = 7  // '
	wbCR          = 8  // \r
	wbLF          = 9  // \n
	wbNewline     = 10 // \v \f
)

// asciiWB maps an ASCII byte to its word-break class. It is a string so that
// nothing is built at initialization; TestASCIIWordBreakTable checks it.
const asciiWB = "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x09\x0a\x0a\x08\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
	"\x00\x00\x00\x00\x00\x00\x00\x07\x00\x00\x00\x00\x05\x00\x06\x00" +
	"\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x04\x05\x00\x00\x00\x00" +
	"\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x00\x00\x00\x03" +
	"\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01" +
	"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x00\x00\x00\x00"

// asciiSegment returns what segment.SegmentWords(d, true) returns for the
// first segment of d (its length and its segment type), when that can be
// decided from ASCII bytes alone; ok is false otherwise. d is not empty.
func asciiSegment(d []byte) (n, typ int, ok bool) {
	c := d[0]
	if c >= utf8.RuneSelf {
		return 0, 0, false
	}
	switch asciiWB[c] {
	case wbALetter, wbNumeric, wbExtendNumLt:
		return asciiWord(d)
	case wbCR:
		n = 1
		if len(d) > 1 && d[1] == '\n' {
			n = 2 // CR LF is one segment
		}
	default:
		n = 1
	}
	// Every other ASCII byte is a None segment by itself (Other, CR, LF,
	// Newline, a Mid* or quote character not between two words) unless
	// Extend or Format characters follow, which join it; and the segmenter
	// stops when an invalid byte follows a None segment. Both cases start
	// with a non-ASCII byte.
	if n < len(d) && d[n] >= utf8.RuneSelf {
		return 0, 0, false
	}
	return n, segment.None, true
}

// asciiWord measures the word at the start of d, which starts with a
// letter, digit or underscore. Over ASCII the Word and WordNumeric rules of
// segment reduce to: letters, digits and underscores in any order, plus
// single MidLetter (:), MidNumLet (.) or quote (') characters between two
// letters (WB6, WB7) and single MidNum (, ;), MidNumLet or quote characters
// between two digits (WB11, WB12). The scanner takes the longest match, and
// on a tie the first rule, WordNumeric: a word without letters but with a
// digit is a Number, any other (letters, or only underscores) a Letter.
func asciiWord(d []byte) (n, typ int, ok bool) {
	letter, digit := false, false
	i := 0
scan:
	for {
		k := asciiWB[d[i]] // d[i] is a letter, digit or underscore
		letter = letter || k == wbALetter
		digit = digit || k == wbNumeric
		i++
		if i == len(d) {
			break
		}
		c := d[i]
		if c >= utf8.RuneSelf {
			return 0, 0, false // a non-ASCII letter or mark may continue the word
		}
		switch mid := asciiWB[c]; mid {
		case wbALetter, wbNumeric, wbExtendNumLt:
			continue
		case wbMidLetter, wbMidNum, wbMidNumLet, wbSingleQuote:
			if i+1 == len(d) {
				break scan // at the end of the input the word ends before mid
			}
			c2 := d[i+1]
			if c2 >= utf8.RuneSelf {
				return 0, 0, false // a Format or Extend character, or a letter, may follow
			}
			next := asciiWB[c2]
			if (k == wbALetter && next == wbALetter && mid != wbMidNum) ||
				(k == wbNumeric && next == wbNumeric && mid != wbMidLetter) {
				i++ // d[i] is now the letter or digit after mid
				continue
			}
		}
		break
	}
	typ = segment.Letter
	if digit && !letter {
		typ = segment.Number
	}
	return i, typ, true
}

// tokenizer yields the tokens of bleve's unicode tokenizer, in order, and
// the words of the letters that tokenizer drops (script.go).
type tokenizer struct {
	data []byte
	pos  int  // where the next segment starts
	off  int  // bleve's running offset: the sum of the segment lengths
	done bool // the segmenter stopped
	// the words of a run of letters without a word-break class still to
	// yield: ranges relative to runPos in data and runOff in offsets
	words          []span
	next0          int // index in words of the next one
	runPos, runOff int
}

// next returns the next token's bytes, start offset and type; ok is false
// at the end. ascii reports that term is all ASCII (it may be false for an
// ASCII term). Like bleve's tokenizer it stops at the first segmenter error
// and at a call that yields no segment.
func (z *tokenizer) next() (term []byte, start int, typ analysis.TokenType, ascii, ok bool) {
	if z.next0 < len(z.words) {
		w := z.words[z.next0]
		z.next0++
		return z.data[z.runPos+w.start : z.runPos+w.end : z.runPos+w.end], z.runOff + w.start, analysis.Ideographic, false, true
	}
	for !z.done && z.pos < len(z.data) {
		rest := z.data[z.pos:]
		n, t, fast := asciiSegment(rest)
		seg := rest[:n:n]
		if !fast {
			var err error
			n, seg, t, err = segment.SegmentWords(rest, true)
			if err != nil || n < 0 || n > len(rest) || seg == nil {
				z.done = true
				break
			}
		}
		if t == segment.None && !fast {
			if c, _ := utf8.DecodeRune(rest); isLetter(c) {
				// A letter the tables give no class: bleve drops it.
				if words, run := appendScriptWords(z.words[:0], rest, c); run > 0 {
					z.words, z.runPos, z.runOff = words, z.pos, z.off
					z.pos += run
					z.off += run
					w := words[0]
					z.next0 = 1
					return z.data[z.runPos+w.start : z.runPos+w.end : z.runPos+w.end], z.runOff + w.start, analysis.Ideographic, false, true
				}
			}
		}
		z.pos += n
		start = z.off
		z.off += len(seg)
		if t != segment.None {
			return seg, start, convertType(t), fast, true
		}
	}
	return nil, 0, 0, false, false
}

// convertType is the token type bleve's unicode tokenizer gives a segment.
func convertType(segmentType int) analysis.TokenType {
	switch segmentType {
	case segment.Ideo, segment.Kana:
		return analysis.Ideographic
	case segment.Number:
		return analysis.Numeric
	}
	return analysis.AlphaNumeric
}
