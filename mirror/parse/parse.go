package parse

import (
	"context"
	"errors"
	"fmt"
	"image"
	"runtime/debug"
	"time"
)

// Errors a parser returns for input it will not index. Callers report
// them as the file's failure reason.
var (
	ErrEncrypted = errors.New("encrypted")
	ErrTooLarge  = errors.New("content over the size limit")
	ErrTimeout   = errors.New("parse timed out")
	ErrMalformed = errors.New("malformed")
	// ErrNoText reports a paged document whose pages hold no text (a scan
	// without OCR): nothing of it could be found.
	ErrNoText = errors.New("no text layer")
	// ErrOCR reports a page that the OCR program failed to read (it
	// crashed or passed its deadline).
	ErrOCR = errors.New("ocr failed")
)

// OCR reads the text of a page image (package ocr's Engine runs tesseract).
type OCR interface {
	// Name is the engine and its version, "tesseract@5.3.0".
	Name() string
	// Recognize returns the text of img, rendered at dpi dots per inch.
	Recognize(ctx context.Context, img *image.Gray, dpi int) (string, error)
}

// OCROff is Doc.OCR for pages without a text layer left unread because
// the parse had no OCR.
const OCROff = "ocr-off"

// Field is one metadata field: a lowercase key and its value.
type Field struct {
	Key, Value string
}

// Part is a range of whole lines of a Doc's Text, from Line (0-based) to
// the next part's Line.
type Part struct {
	Line    int    // first line, 0-based
	Section string // label of the part ("Slide 2: Root cause"); "" for none
	Page    int    // 1-based page number; 0 when the format has no pages
	Kind    string // chunker kind of the lines: "markdown", "text" or "code"
	// Attachment is the file name of the e-mail attachment the lines come
	// from ("report.pdf"); "" for the message itself and for other formats.
	// An attachment is an entry of its own in results
	// ("mail.eml#attachment=report.pdf").
	Attachment string
}

// Doc is what a parser produces.
type Doc struct {
	Title      string
	Tags       []string
	Lang       string
	LineOffset int
	Text       string
	Fields     []Field // sorted by Key, no duplicate keys
	Parts      []Part  // nil: the whole text is one part of the Doc's kind
	// Attachments are the metadata of the e-mail attachments whose text
	// the Parts hold, one per Part.Attachment name, in order of first
	// appearance; nil for other formats.
	Attachments []Attachment
	// OCR says what became of pages without a text layer that show
	// something (scans): "" when there were none, OCROff when they were
	// left unread, else the Name of the OCR that read them; OCRPages is
	// how many it read.
	OCR      string
	OCRPages int
}

// Attachment is what a query filters an e-mail attachment's entry by: the
// parser that read it (its type), and its own title, language, tags and
// fields.
type Attachment struct {
	Name   string // as in Part.Attachment
	Parser string // name@version of the parser that read it
	Title  string
	Lang   string
	Tags   []string
	Fields []Field // sorted by Key, no duplicate keys
}

// Limits bound one parse.
type Limits struct {
	Timeout     time.Duration // wall time of one parse
	MaxText     int           // bytes of text a parse may produce
	MaxUnpacked int64         // bytes an archive format may decompress
	// OCRPages is the most pages of one file that OCR reads (later scanned
	// pages stay unread); OCRPageTimeout the deadline of one page. With
	// OCR a parse's deadline is Timeout plus OCRPages times OCRPageTimeout.
	OCRPages       int
	OCRPageTimeout time.Duration
}

// DefaultLimits are the limits used when a field of Limits is zero.
var DefaultLimits = Limits{Timeout: 20 * time.Second, MaxText: 32 << 20, MaxUnpacked: 128 << 20,
	OCRPages: 100, OCRPageTimeout: 60 * time.Second}

// WithDefaults fills zero fields from DefaultLimits.
func (l Limits) WithDefaults() Limits { return l.withDefaults() }

// withDefaults fills zero fields from DefaultLimits.
func (l Limits) withDefaults() Limits {
	if l.Timeout <= 0 {
		l.Timeout = DefaultLimits.Timeout
	}
	if l.MaxText <= 0 {
		l.MaxText = DefaultLimits.MaxText
	}
	if l.MaxUnpacked <= 0 {
		l.MaxUnpacked = DefaultLimits.MaxUnpacked
	}
	if l.OCRPages <= 0 {
		l.OCRPages = DefaultLimits.OCRPages
	}
	if l.OCRPageTimeout <= 0 {
		l.OCRPageTimeout = DefaultLimits.OCRPageTimeout
	}
	return l
}

// Input is one file to parse.
type Input struct {
	Path   string
	Data   []byte
	Limits Limits
	// Nested parses an embedded file (an e-mail attachment) by its name;
	// nil when nesting is not allowed. It returns ok=false for a name no
	// parser handles.
	Nested func(ctx context.Context, name string, data []byte) (doc *Doc, parser string, ok bool, err error)
	// OCR reads the pages without a text layer (PDF); nil leaves them
	// unread.
	OCR OCR
}

// deadline is the wall time the parse of in may take.
func (in *Input) deadline() time.Duration {
	if in.OCR == nil {
		return in.Limits.Timeout
	}
	return in.Limits.Timeout + time.Duration(in.Limits.OCRPages)*in.Limits.OCRPageTimeout
}

// Parser turns the bytes of one format into a Doc.
type Parser interface {
	// Name is the parser's name@version, e.g. "pdf@1". Bump the version
	// whenever the Doc for some input changes: files it handles are then
	// parsed again by the next refresh, and no others.
	Name() string
	Parse(ctx context.Context, in *Input) (*Doc, error)
}

// Warmer is a Parser with a one-time start-up (compiling a module) that
// must not count against the deadline of the file that happens to need it
// first.
type Warmer interface {
	Warm(ctx context.Context) error
}

// Run parses in with p under in.Limits: it returns ErrTimeout when the
// deadline passes (parsers watch ctx and stop soon after), and turns a
// panic inside the parser into an error wrapping ErrMalformed. A Warmer is
// warmed first, outside the deadline.
func Run(ctx context.Context, p Parser, in *Input) (*Doc, error) {
	in.Limits = in.Limits.withDefaults()
	if w, ok := p.(Warmer); ok {
		if err := w.Warm(ctx); err != nil {
			return nil, err
		}
	}
	timeout := in.deadline()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type result struct {
		doc *Doc
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: fmt.Errorf("%w: parser panic: %v\n%s", ErrMalformed, r, firstLines(debug.Stack(), 12))}
			}
		}()
		d, err := p.Parse(ctx, in)
		done <- result{d, err}
	}()
	select {
	case r := <-done:
		if r.err == nil && r.doc != nil && len(r.doc.Text) > in.Limits.MaxText {
			return nil, fmt.Errorf("%w: text of %d bytes", ErrTooLarge, len(r.doc.Text))
		}
		if r.err != nil && ctx.Err() == context.DeadlineExceeded {
			return nil, fmt.Errorf("%w after %s", ErrTimeout, timeout)
		}
		return r.doc, r.err
	case <-ctx.Done():
		if ctx.Err() == context.DeadlineExceeded {
			return nil, fmt.Errorf("%w after %s", ErrTimeout, timeout)
		}
		return nil, ctx.Err()
	}
}

// firstLines keeps the first n lines of a stack trace.
func firstLines(b []byte, n int) string {
	for i, c := range b {
		if c == '\n' {
			if n--; n == 0 {
				return string(b[:i])
			}
		}
	}
	return string(b)
}
