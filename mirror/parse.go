package mirror

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/unicode/norm"
)

// ErrBinary is returned by Parse for content that is not text: a NUL byte in
// the first sniffLen bytes, or a well-known binary extension.
var ErrBinary = errors.New("binary file")

// sniffLen is how much of a file is checked for NUL bytes.
const sniffLen = 8 << 10

// Doc is the normalized, parsed form of one source file.
type Doc struct {
	Parser     string   // name@version: "text@1", "markdown@1", "code@1"
	Title      string   // markdown: frontmatter title, else first "# " heading; else ""
	Tags       []string // markdown frontmatter tags/keywords (string or list), else nil
	Lang       string   // "markdown", "text", or a code language ("go", "python", ...)
	LineOffset int      // source lines before Text begins: source line = LineOffset + line in Text
	Text       string   // NFC, valid UTF-8, "\n" line ends, no BOM
}

//semguard:begin parse

// Parse turns the raw bytes of the file at path into a Doc, choosing the
// parser by file name (see ParserFor). Text is decoded (UTF-8, or UTF-16 with
// a byte order mark), its BOM stripped, invalid bytes replaced by U+FFFD one
// for one, CRLF and lone CR turned into "\n", and NFC-normalized. Content
// with a NUL byte in the first 8 KiB yields an error wrapping ErrBinary.
func Parse(path string, raw []byte) (*Doc, error) {
	k, ok := classify(path)
	if !ok {
		return nil, fmt.Errorf("parse %s: %w", path, ErrBinary)
	}
	text, err := normalize(raw)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	if k.parser == markdownParser {
		return parseMarkdown(text), nil
	}
	return &Doc{Parser: k.parser, Lang: k.lang, Text: text}, nil
}

//semguard:end parse

// normalize applies the text normalization shared by every parser.
func normalize(raw []byte) (string, error) {
	b, err := decodeUTF16(raw)
	if err != nil {
		return "", err
	}
	b = bytes.TrimPrefix(b, []byte("\uFEFF"))
	if bytes.IndexByte(b[:min(len(b), sniffLen)], 0) >= 0 {
		return "", ErrBinary
	}
	return norm.NFC.String(cleanUTF8(b)), nil
}

// decodeUTF16 converts UTF-16 text that starts with a byte order mark to
// UTF-8; anything else is returned as is. (Without a BOM UTF-16 text is full
// of NUL bytes and is rejected as binary.)
func decodeUTF16(raw []byte) ([]byte, error) {
	if !bytes.HasPrefix(raw, []byte{0xFF, 0xFE}) && !bytes.HasPrefix(raw, []byte{0xFE, 0xFF}) {
		return raw, nil
	}
	dec := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
	out, err := dec.Bytes(raw)
	if err != nil {
		return nil, fmt.Errorf("decode utf-16: %w", err)
	}
	return out, nil
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
