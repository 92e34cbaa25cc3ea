package mirror

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

//semguard:begin mirror-object

// Mirror object layout (all integers unsigned LEB128 varints):
//
//	"ARMD" objectVersion
//	len Parser   Parser bytes
//	len Title    Title bytes
//	len Lang     Lang bytes
//	count Tags   { len tag  tag bytes }...
//	LineOffset
//	count Fields { len key  key bytes  len value  value bytes }...
//	count Parts  { line  len section  section bytes  page  len kind  kind bytes
//	               len attachment  attachment bytes }...
//	count Attachments { len name  name bytes  len parser  parser bytes
//	               len title  title bytes  len lang  lang bytes
//	               count tags { len tag  tag bytes }...
//	               count fields { len key  key bytes  len value  value bytes }... }...
//	len Text     Text bytes
//
// Nothing may follow Text. Bump objectVersion when the layout changes; old
// objects then fail to decode and are re-parsed from their sources.
const (
	objectMagic   = "ARMD"
	objectVersion = 4
)

// ErrCorrupt marks stored data (a manifest or a mirror object) that fails its
// checksum, is truncated, or has an unknown version. Callers treat it as
// "rebuild from the sources".
var ErrCorrupt = errors.New("corrupt mirror data")

// Encode returns the on-disk mirror object for d. The encoding is canonical:
// equal Docs encode to equal bytes (nil and empty Tags are the same).
func (d *Doc) Encode() []byte {
	n := len(objectMagic) + 1 + 6*binary.MaxVarintLen64 +
		len(d.Parser) + len(d.Title) + len(d.Lang) + len(d.Text)
	for _, t := range d.Tags {
		n += binary.MaxVarintLen64 + len(t)
	}
	for _, f := range d.Fields {
		n += 2*binary.MaxVarintLen64 + len(f.Key) + len(f.Value)
	}
	for _, p := range d.Parts {
		n += 5*binary.MaxVarintLen64 + len(p.Section) + len(p.Kind) + len(p.Attachment)
	}
	for _, a := range d.Attachments {
		n += 6*binary.MaxVarintLen64 + len(a.Name) + len(a.Parser) + len(a.Title) + len(a.Lang)
	}
	b := make([]byte, 0, n)
	b = append(b, objectMagic...)
	b = append(b, objectVersion)
	b = appendString(b, d.Parser)
	b = appendString(b, d.Title)
	b = appendString(b, d.Lang)
	b = appendTags(b, d.Tags)
	b = binary.AppendUvarint(b, uint64(d.LineOffset))
	b = appendFields(b, d.Fields)
	b = binary.AppendUvarint(b, uint64(len(d.Parts)))
	for _, p := range d.Parts {
		b = binary.AppendUvarint(b, uint64(p.Line))
		b = appendString(b, p.Section)
		b = binary.AppendUvarint(b, uint64(p.Page))
		b = appendString(b, p.Kind)
		b = appendString(b, p.Attachment)
	}
	b = binary.AppendUvarint(b, uint64(len(d.Attachments)))
	for _, a := range d.Attachments {
		b = appendString(appendString(appendString(appendString(b, a.Name), a.Parser), a.Title), a.Lang)
		b = appendTags(b, a.Tags)
		b = appendFields(b, a.Fields)
	}
	return appendString(b, d.Text)
}

// TextHash is the BLAKE3-256 digest of d.Encode(): the object's name in the
// Store and the text identity the fingerprint is built from.
func (d *Doc) TextHash() Hash { return HashBytes(d.Encode()) }

// DecodeDoc parses a mirror object written by Encode. Malformed input yields
// an error wrapping ErrCorrupt.
func DecodeDoc(b []byte) (*Doc, error) {
	r := reader{b: b}
	if string(r.bytes(len(objectMagic))) != objectMagic {
		return nil, fmt.Errorf("decode mirror object: bad magic: %w", ErrCorrupt)
	}
	if v := r.byte(); v != objectVersion {
		return nil, fmt.Errorf("decode mirror object: version %d: %w", v, ErrCorrupt)
	}
	d := &Doc{Parser: r.string(), Title: r.string(), Lang: r.string()}
	d.Tags = decodeTags(&r)
	off := r.uvarint()
	if off > math.MaxInt32 {
		r.fail("line offset out of range")
	}
	d.LineOffset = int(off)
	d.Fields = decodeFields(&r)
	d.Parts = decodeParts(&r)
	d.Attachments = decodeAttachments(&r)
	d.Text = r.string()
	if r.err == nil && r.remaining() != 0 {
		r.fail("trailing bytes")
	}
	if r.err != nil {
		return nil, fmt.Errorf("decode mirror object: %s: %w", r.err, ErrCorrupt)
	}
	return d, nil
}

// decodeList reads a counted list, each element by one; nil when it is
// empty.
func decodeList[T any](r *reader, one func(*reader) T) []T {
	n := r.count()
	if n == 0 {
		return nil
	}
	out := make([]T, n)
	for i := range out {
		out[i] = one(r)
	}
	return out
}

// decodeFields reads the fields of an object; nil when there are none.
func decodeFields(r *reader) []Field {
	return decodeList(r, func(r *reader) Field { return Field{Key: r.string(), Value: r.string()} })
}

// decodeParts reads the parts of an object; nil when there are none. Line
// and page numbers must fit in an int32.
func decodeParts(r *reader) []Part {
	return decodeList(r, func(r *reader) Part {
		line, sec := r.uvarint(), r.string()
		page, kind, att := r.uvarint(), r.string(), r.string()
		if line > math.MaxInt32 || page > math.MaxInt32 {
			r.fail("part out of range")
		}
		return Part{Line: int(line), Section: sec, Page: int(page), Kind: kind, Attachment: att}
	})
}

// decodeTags reads a list of tags; nil when there are none.
func decodeTags(r *reader) []string {
	return decodeList(r, func(r *reader) string { return r.string() })
}

// decodeAttachments reads the attachments of an object; nil when there are
// none.
func decodeAttachments(r *reader) []Attachment {
	return decodeList(r, func(r *reader) Attachment {
		a := Attachment{Name: r.string(), Parser: r.string(), Title: r.string(), Lang: r.string()}
		a.Tags = decodeTags(r)
		a.Fields = decodeFields(r)
		return a
	})
}

func appendTags(b []byte, tags []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(tags)))
	for _, t := range tags {
		b = appendString(b, t)
	}
	return b
}

func appendFields(b []byte, fs []Field) []byte {
	b = binary.AppendUvarint(b, uint64(len(fs)))
	for _, f := range fs {
		b = appendString(appendString(b, f.Key), f.Value)
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// reader consumes a byte slice, remembering the first error so decoders can
// read a whole record and check once. It advances an offset rather than
// re-slicing, which keeps pointer writes (and GC write barriers) out of the
// manifest decoder's inner loop.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) fail(msg string) {
	if r.err == nil {
		r.err = errors.New(msg)
	}
	r.off = len(r.b)
}

// remaining is how many bytes are left.
func (r *reader) remaining() int { return len(r.b) - r.off }

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > r.remaining() {
		r.fail("truncated")
		return nil
	}
	out := r.b[r.off : r.off+n]
	r.off += n
	return out
}

func (r *reader) byte() byte {
	if b := r.bytes(1); b != nil {
		return b[0]
	}
	return 0
}

// uvarint reads a minimally encoded varint; overlong encodings are rejected
// so that every value has exactly one encoding.
func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	if r.off < len(r.b) && r.b[r.off] < 0x80 { // one-byte fast path
		v := r.b[r.off]
		r.off++
		return uint64(v)
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.fail("bad varint")
		return 0
	}
	if r.b[r.off+n-1] == 0 {
		r.fail("overlong varint")
		return 0
	}
	r.off += n
	return v
}

// count reads a length that must fit in what is left of the input, so a
// corrupt count cannot make the decoder allocate more than the input size.
func (r *reader) count() int {
	v := r.uvarint()
	if v > uint64(r.remaining()) {
		r.fail("count exceeds input")
		return 0
	}
	return int(v)
}

func (r *reader) string() string {
	return string(r.bytes(r.count()))
}

//semguard:end mirror-object
