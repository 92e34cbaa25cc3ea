package pdf

import (
	"context"
	"errors"
	"fmt"
	"strings"

	pdferrors "github.com/klippa-app/go-pdfium/errors"
	"github.com/klippa-app/go-pdfium/requests"

	"github.com/autorag/autorag/mirror/parse"
)

//semguard:begin pdf-parser

// Parser reads PDF files.
type Parser struct{}

// Name is the parser's name@version.
func (Parser) Name() string { return "pdf@3" }

// metaTags are the information dictionary entries kept as fields, with
// their field keys.
var metaTags = [][2]string{{"Title", "title"}, {"Author", "author"}, {"Subject", "subject"},
	{"Keywords", "keywords"}, {"Creator", "creator"}, {"Producer", "producer"}, {"CreationDate", "created"}}

// Warm starts the process's PDFium pool (compiling the module, or loading
// it from the cache) unless it runs already, and says so through
// parse.Notify while it does: compiling takes seconds, once per machine.
func (Parser) Warm(ctx context.Context) error {
	if started() {
		return nil
	}
	parse.Notify(ctx, warmNotice)
	defer parse.Notify(ctx, "")
	_, err := thePool()
	return err
}

// warmNotice is what a progress line shows while PDFium starts.
const warmNotice = "preparing the PDF engine (once per machine)"

// Parse extracts the text of every page.
func (Parser) Parse(ctx context.Context, in *parse.Input) (*parse.Doc, error) {
	if err := inflateBudget(in.Data, in.Limits); err != nil {
		return nil, err
	}
	inst, err := instance(ctx)
	if err != nil {
		return nil, err
	}
	// Kill stops a parse stuck inside PDFium at the deadline; Close hands
	// a healthy instance back to the pool.
	stop := context.AfterFunc(ctx, func() { _ = inst.Kill() })
	defer func() {
		if stop() {
			_ = inst.Close()
		}
	}()
	data := in.Data
	doc, err := inst.OpenDocument(&requests.OpenDocument{File: &data})
	if err != nil {
		return nil, openError(ctx, err)
	}
	defer inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc.Document})
	d := &parse.Doc{Lang: "pdf"}
	for _, tag := range metaTags {
		if m, err := inst.FPDF_GetMetaText(&requests.FPDF_GetMetaText{Document: doc.Document, Tag: tag[0]}); err == nil {
			d.Fields = append(d.Fields, parse.Field{Key: tag[1], Value: pdfDate(tag[1], m.Value)})
		}
	}
	for _, f := range d.Fields {
		switch f.Key {
		case "title":
			d.Title = f.Value
		case "keywords":
			d.Tags = splitKeywords(f.Value)
		}
	}
	b := parse.NewBuilder(in.Limits.MaxText)
	r := &reader{ctx: ctx, inst: inst, doc: doc.Document, in: in}
	if err := r.pages(b); err != nil {
		return nil, err
	}
	if b.Over() {
		return nil, fmt.Errorf("%w: text over %d bytes", parse.ErrTooLarge, in.Limits.MaxText)
	}
	d.Text, d.Parts = b.Text()
	d.OCR, d.OCRPages = r.ocrState(), r.read
	if strings.TrimSpace(d.Text) == "" {
		return nil, r.noText()
	}
	return d, nil
}

//semguard:end pdf-parser

// openError maps PDFium's open failures to the package's errors.
func openError(ctx context.Context, err error) error {
	switch {
	case errors.Is(err, pdferrors.ErrPassword), errors.Is(err, pdferrors.ErrSecurity):
		return parse.ErrEncrypted
	case errors.Is(err, pdferrors.ErrFormat), errors.Is(err, pdferrors.ErrFile):
		return fmt.Errorf("%w: not a readable PDF", parse.ErrMalformed)
	}
	return fail(ctx, err)
}

// fail prefers the context's error: a killed instance reports odd errors.
func fail(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	return fmt.Errorf("%w: %v", parse.ErrMalformed, err)
}

// splitKeywords splits a Keywords entry on commas or semicolons.
func splitKeywords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' })
}

// pdfDate renders a PDF date ("D:20261201071020+00'00'") of the created
// field as "2026-12-01T07:10:20"; other values pass unchanged.
func pdfDate(key, v string) string {
	d := strings.TrimPrefix(v, "D:")
	if key != "created" || len(d) < 14 {
		return v
	}
	for _, c := range d[:14] {
		if c < '0' || c > '9' {
			return v
		}
	}
	return d[0:4] + "-" + d[4:6] + "-" + d[6:8] + "T" + d[8:10] + ":" + d[10:12] + ":" + d[12:14]
}
