package pdf

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"sync"

	"github.com/autorag/autorag/mirror/parse"
)

// A PDF's streams are deflated: a file of a few MB can hold an object
// stream or a page's content that inflates to gigabytes, and PDFium
// inflates each whole into its sandbox's memory before a single page is
// read (issue 20: object-stream amplification). inflateBudget inflates
// every deflated stream that text extraction decodes (all but images) in
// Go first, streaming, counting each page's content once per page that
// draws it, and refuses the file with parse.ErrTooLarge once the total
// passes the parse's budget (Limits.MaxUnpacked, as for the ZIP formats),
// before PDFium sees it. What it holds at a time is one 32 KiB window.

// pdfPatterns are the patterns inflateBudget reads a file's objects with.
type pdfPatterns struct {
	objHead, contents, ref, image, flate, objStm, form *regexp.Regexp
}

// patterns compiles them at the first PDF rather than at the start of
// every autorag process.
var patterns = sync.OnceValue(func() *pdfPatterns {
	return &pdfPatterns{
		objHead:  regexp.MustCompile(`(\d+)\s+\d+\s+obj\b`),
		contents: regexp.MustCompile(`/Contents\s*(\[[\d\sR]*\]|\d+\s+\d+\s+R)`),
		ref:      regexp.MustCompile(`(\d+)\s+\d+\s+R`),
		image:    regexp.MustCompile(`/Subtype\s*/Image\b`),
		flate:    regexp.MustCompile(`/(FlateDecode|Fl)\b`),
		objStm:   regexp.MustCompile(`/Type\s*/ObjStm\b`),
		form:     regexp.MustCompile(`/Subtype\s*/Form\b`),
	}
})

// stream is one stream of the file: its object number, whether it is an
// object stream, and the bytes it inflates to (its raw length if it is
// not deflated or not readable as deflate).
type stream struct {
	num, decoded int64
	objStm, form bool
}

// inflateBudget returns nil when the file's streams inflate to at most
// lim.MaxUnpacked bytes, and the page contents and forms (each page's
// content counted once per page that draws it) to at most four times the
// text cap: every byte of text a page shows costs at least one byte of
// its operators, and four leave room for positioning and fonts.
func inflateBudget(data []byte, lim parse.Limits) error {
	budget, drawn := lim.MaxUnpacked, 4*int64(lim.MaxText)
	refs := map[int64]int64{}
	countRefs(data, refs)
	var streams []stream
	for _, s := range findStreams(data) {
		streams = append(streams, s.measure(data, budget+1, refs))
	}
	var total, shown int64
	for _, s := range streams {
		total += s.decoded
		if n := refs[s.num]; n > 0 || s.form {
			shown += s.decoded * max(1, n)
		}
		if total > budget || shown > drawn {
			return fmt.Errorf("%w: the PDF's streams inflate to more than %d bytes, or its pages' contents to more than %d", parse.ErrTooLarge, budget, drawn)
		}
	}
	return nil
}

// countRefs adds, for each object number, how many /Contents entries of
// b name it.
func countRefs(b []byte, refs map[int64]int64) {
	for _, m := range patterns().contents.FindAllSubmatch(b, -1) {
		for _, r := range patterns().ref.FindAllSubmatch(m[1], -1) {
			if n, err := strconv.ParseInt(string(r[1]), 10, 64); err == nil {
				refs[n]++
			}
		}
	}
}

// rawStream locates a stream in the file: its object number, dictionary
// and where its data begins.
type rawStream struct {
	num   int64
	dict  []byte
	start int
}

// findStreams finds every "stream" keyword that ends a dictionary and the
// object it belongs to (the nearest "N G obj" before it).
func findStreams(data []byte) []rawStream {
	var out []rawStream
	for off := 0; ; {
		i := bytes.Index(data[off:], []byte("stream"))
		if i < 0 {
			return out
		}
		at := off + i
		off = at + len("stream")
		if at >= 3 && string(data[at-3:at]) == "end" {
			continue
		}
		start := off
		if start < len(data) && data[start] == '\r' {
			start++
		}
		if start < len(data) && data[start] == '\n' {
			start++
		}
		from := max(0, at-4096)
		heads := patterns().objHead.FindAllSubmatchIndex(data[from:at], -1)
		if len(heads) == 0 {
			continue
		}
		h := heads[len(heads)-1]
		n, _ := strconv.ParseInt(string(data[from+h[2]:from+h[3]]), 10, 64)
		out = append(out, rawStream{num: n, dict: data[from+h[1] : at], start: start})
	}
}

// measure inflates the stream (at most limit bytes) and, for an object
// stream, counts the /Contents entries of the objects it holds.
func (s rawStream) measure(data []byte, limit int64, refs map[int64]int64) stream {
	st := stream{num: s.num, objStm: patterns().objStm.Match(s.dict), form: patterns().form.Match(s.dict)}
	if patterns().image.Match(s.dict) {
		return st
	}
	if !patterns().flate.Match(s.dict) {
		end := bytes.Index(data[s.start:], []byte("endstream"))
		if end < 0 {
			end = len(data) - s.start
		}
		st.decoded = int64(end)
		return st
	}
	zr, err := zlib.NewReader(bytes.NewReader(data[s.start:]))
	if err != nil {
		return st // not deflate after all: PDFium judges it
	}
	w := &refScanner{refs: refs, scan: st.objStm}
	// A stream that stops inflating (truncated, corrupt) counts what it
	// gave: PDFium judges the rest.
	st.decoded, _ = io.Copy(w, io.LimitReader(zr, limit))
	w.flush()
	return st
}

// refScanner counts /Contents entries in what is written to it, keeping
// a tail of the last window so that an entry split between writes is seen.
type refScanner struct {
	refs map[int64]int64
	scan bool
	tail []byte
}

// refTail is longer than any /Contents entry the scanner counts.
const refTail = 256

func (w *refScanner) Write(p []byte) (int, error) {
	if !w.scan {
		return len(p), nil
	}
	buf := append(w.tail, p...)
	cut := max(0, len(buf)-refTail)
	// Entries that start before the cut are counted now; the rest with the
	// next window.
	for _, m := range patterns().contents.FindAllSubmatchIndex(buf, -1) {
		if m[0] < cut {
			countRefs(buf[m[0]:m[1]], w.refs)
		}
	}
	w.tail = append(w.tail[:0], buf[cut:]...)
	return len(p), nil
}

func (w *refScanner) flush() {
	if w.scan {
		countRefs(w.tail, w.refs)
	}
}
