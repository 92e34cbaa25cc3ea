package parse

import (
	"bytes"
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	xunicode "golang.org/x/text/encoding/unicode"
	"golang.org/x/text/unicode/norm"
)

// ErrBinary reports content that is not text: a NUL byte in the first
// SniffLen bytes of something that is not UTF-16.
var ErrBinary = errors.New("binary file")

// SniffLen is how much of a file is checked for NUL bytes.
const SniffLen = 8 << 10

// detectLen is how much of a file the legacy-encoding guess looks at.
const detectLen = 64 << 10

// Decode turns the raw bytes of a text file into UTF-8: a UTF-8 BOM is
// stripped; UTF-16 is decoded when it has a BOM or, without one, when every
// other byte is NUL; valid UTF-8 stays as it is; anything else is decoded
// from the legacy encoding that explains it best (Shift_JIS, EUC-JP,
// GB18030, Big5, EUC-KR, else Windows-1252, a superset of Latin-1's
// printable range). It returns the encoding's name ("utf-8", "utf-16le",
// "shift_jis", "windows-1252", ...). A NUL byte in the first SniffLen bytes
// of what is not UTF-16 yields ErrBinary.
func Decode(raw []byte) ([]byte, string, error) {
	if bytes.HasPrefix(raw, []byte("\xEF\xBB\xBF")) {
		raw = raw[3:]
	}
	if name, enc := utf16Of(raw); enc != nil {
		out, err := enc.NewDecoder().Bytes(raw)
		if err != nil {
			return nil, "", err
		}
		return bytes.TrimPrefix(out, []byte("\uFEFF")), name, nil
	}
	if bytes.IndexByte(raw[:min(len(raw), SniffLen)], 0) >= 0 {
		return nil, "", ErrBinary
	}
	if utf8.Valid(raw) {
		return raw, "utf-8", nil
	}
	name, enc := guessLegacy(raw[:min(len(raw), detectLen)])
	out, err := enc.NewDecoder().Bytes(raw)
	if err != nil {
		return nil, "", err
	}
	return out, name, nil
}

// LooksUTF16 reports whether head starts like UTF-16 text (a BOM, or NUL
// in every other byte), which the scanner must not take for binary.
func LooksUTF16(head []byte) bool {
	_, enc := utf16Of(head)
	return enc != nil
}

// utf16Of recognizes UTF-16 by its BOM, or by NUL bytes in all odd (LE) or
// all even (BE) positions of the first bytes while the others hold none.
func utf16Of(raw []byte) (string, encoding.Encoding) {
	switch {
	case bytes.HasPrefix(raw, []byte{0xFF, 0xFE}):
		return "utf-16le", xunicode.UTF16(xunicode.LittleEndian, xunicode.ExpectBOM)
	case bytes.HasPrefix(raw, []byte{0xFE, 0xFF}):
		return "utf-16be", xunicode.UTF16(xunicode.BigEndian, xunicode.ExpectBOM)
	}
	head := raw[:min(len(raw), 1024)&^1]
	if len(head) < 4 {
		return "", nil
	}
	var zeros [2]int
	for i, c := range head {
		if c == 0 {
			zeros[i&1]++
		}
	}
	half := len(head) / 2
	switch {
	case zeros[1] >= half*9/10 && zeros[0] == 0:
		return "utf-16le", xunicode.UTF16(xunicode.LittleEndian, xunicode.IgnoreBOM)
	case zeros[0] >= half*9/10 && zeros[1] == 0:
		return "utf-16be", xunicode.UTF16(xunicode.BigEndian, xunicode.IgnoreBOM)
	}
	return "", nil
}

// legacy lists the candidate encodings of text that is not UTF-8, with the
// characters most frequent in its language (each counts extra).
var legacy = []struct {
	name   string
	enc    encoding.Encoding
	common string
}{
	{"shift_jis", japanese.ShiftJIS, "のにはをたがでてとしれさいるかもな"},
	{"euc-jp", japanese.EUCJP, "のにはをたがでてとしれさいるかもな"},
	{"gb18030", simplifiedchinese.GB18030, "的是了在和有一不这我们中为人个上来国到说时要就出会也对"},
	{"big5", traditionalchinese.Big5, "的是了在和有一不這我們中為人個上來國到說時要就出會也對"},
	{"euc-kr", korean.EUCKR, "이다의는에을하가고서한지로도사기으리자"},
}

// guessLegacy picks the legacy encoding under which sample reads most like
// text of its language: no invalid sequences, many kana, hangul or common
// ideographs. Without such evidence it is Windows-1252.
func guessLegacy(sample []byte) (string, encoding.Encoding) {
	bestName, best, bestScore := "windows-1252", encoding.Encoding(charmap.Windows1252), 0
	for _, c := range legacy {
		out, err := c.enc.NewDecoder().Bytes(sample)
		if err != nil {
			continue
		}
		if s := cjkScore(string(out), c.common); s > bestScore {
			bestName, best, bestScore = c.name, c.enc, s
		}
	}
	return bestName, best
}

// cjkScore rates decoded text: common characters of the language count 4,
// kana and hangul syllables 2, other ideographs 1, half-width katakana -2;
// replacement characters,
// controls and symbols from rarely used blocks cost 8. A cut multi-byte
// sequence at the end of the sample is not held against it.
func cjkScore(s, common string) int {
	score := 0
	s = strings.TrimRight(s, "\uFFFD")
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
		case strings.ContainsRune(common, r):
			score += 4
		case r >= 0xFF61 && r <= 0xFF9F:
			score -= 2 // half-width katakana: rare in text, common in misread bytes
		case unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			if r >= 0xAC00 || r < 0x3130 || r > 0x318F { // not compatibility jamo
				score += 2
			}
		case r >= 0x4E00 && r <= 0x9FFF:
			score++
		case r == utf8.RuneError || unicode.IsControl(r) || r >= 0xE000 && r <= 0xF8FF || r >= 0x3400 && r <= 0x4DBF:
			score -= 8
		}
	}
	return score
}

// Text decodes raw (see Decode) and normalizes it: CRLF and lone CR become
// LF, invalid bytes U+FFFD, and the result is NFC.
func Text(raw []byte) (string, string, error) {
	b, enc, err := Decode(raw)
	if err != nil {
		return "", "", err
	}
	return norm.NFC.String(DropControls(cleanUTF8(b))), enc, nil
}

// cleanUTF8 returns b as a string with every invalid byte replaced by U+FFFD
// and every CRLF or lone CR replaced by LF.
func cleanUTF8(b []byte) string {
	if utf8.Valid(b) && bytes.IndexByte(b, '\r') < 0 {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b))
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '\r':
			sb.WriteByte('\n')
			i++
			if i < len(b) && b[i] == '\n' {
				i++
			}
		case c < utf8.RuneSelf:
			sb.WriteByte(c)
			i++
		default:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				sb.WriteRune(utf8.RuneError)
			} else {
				sb.Write(b[i : i+n])
			}
			i += n
		}
	}
	return sb.String()
}
