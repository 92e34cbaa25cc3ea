package ooxml

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/autorag/autorag/mirror/parse"
)

// maxEntries bounds the entries of an archive this package opens.
const maxEntries = 20000

// pkg is an opened OOXML archive with its decompression budget.
type pkg struct {
	ctx    context.Context
	files  map[string]*zip.File
	budget int64 // bytes left to decompress
	limit  int64
}

func openPkg(ctx context.Context, in *parse.Input) (*pkg, error) {
	if err := notZip(in.Data); err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(bytes.NewReader(in.Data), int64(len(in.Data)))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", parse.ErrMalformed, err)
	}
	if len(zr.File) > maxEntries {
		return nil, fmt.Errorf("%w: %d archive entries", parse.ErrTooLarge, len(zr.File))
	}
	p := &pkg{ctx: ctx, files: make(map[string]*zip.File, len(zr.File)), budget: in.Limits.MaxUnpacked, limit: in.Limits.MaxUnpacked}
	for _, f := range zr.File {
		p.files[strings.TrimPrefix(f.Name, "/")] = f
	}
	return p, nil
}

// oleMagic starts an OLE compound file, the container Office wraps a
// password-protected document in (and the legacy .doc/.xls/.ppt format).
var oleMagic = []byte{0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1}

// encryptedPackage is the name, in UTF-16LE as OLE directory entries hold
// it, of the stream an encrypted OOXML document keeps its package in.
var encryptedPackage = []byte("E\x00n\x00c\x00r\x00y\x00p\x00t\x00e\x00d\x00P\x00a\x00c\x00k\x00a\x00g\x00e\x00")

// notZip names what an OLE compound file given as OOXML is: a
// password-protected document (ErrEncrypted) or a legacy binary one.
func notZip(data []byte) error {
	if !bytes.HasPrefix(data, oleMagic) {
		return nil
	}
	if bytes.Contains(data, encryptedPackage) {
		return parse.ErrEncrypted
	}
	return fmt.Errorf("%w: an OLE compound file (a legacy binary Office document?), not OOXML", parse.ErrMalformed)
}

// errNoPart reports a part the archive does not have.
var errNoPart = errors.New("missing part")

// open returns a reader of the named part that draws on the budget.
func (p *pkg) open(name string) (io.ReadCloser, error) {
	f, ok := p.files[name]
	if !ok {
		return nil, fmt.Errorf("%w: %s", errNoPart, name)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", parse.ErrMalformed, name, err)
	}
	return &budgetReader{p: p, r: rc}, nil
}

// budgetReader fails with ErrTooLarge once the archive's budget is spent.
type budgetReader struct {
	p *pkg
	r io.ReadCloser
}

func (b *budgetReader) Read(buf []byte) (int, error) {
	if err := b.p.ctx.Err(); err != nil {
		return 0, err
	}
	if b.p.budget <= 0 {
		return 0, fmt.Errorf("%w: more than %d bytes decompressed", parse.ErrTooLarge, b.p.limit)
	}
	if int64(len(buf)) > b.p.budget {
		buf = buf[:b.p.budget]
	}
	n, err := b.r.Read(buf)
	b.p.budget -= int64(n)
	return n, err
}

func (b *budgetReader) Close() error { return b.r.Close() }

// decode streams the XML of a part to fn, token by token.
func (p *pkg) decode(name string, fn func(d *xml.Decoder, t xml.Token) error) error {
	rc, err := p.open(name)
	if err != nil {
		return err
	}
	defer rc.Close()
	d := xml.NewDecoder(rc)
	d.Strict = false
	for {
		t, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return fmt.Errorf("%w: %s: %v", parse.ErrMalformed, name, err)
			}
			return err
		}
		if err := fn(d, t); err != nil {
			return err
		}
	}
}

// rels reads a part's relationships: id to target part name.
func (p *pkg) rels(part string) (map[string]string, error) {
	dir, base := path.Split(part)
	name := dir + "_rels/" + base + ".rels"
	out := map[string]string{}
	err := p.decode(name, func(_ *xml.Decoder, t xml.Token) error {
		if s, ok := t.(xml.StartElement); ok && s.Name.Local == "Relationship" {
			target := attr(s, "Target")
			if !strings.HasPrefix(target, "/") {
				target = path.Join(dir, target)
			}
			out[attr(s, "Id")] = strings.TrimPrefix(target, "/")
		}
		return nil
	})
	if errors.Is(err, errNoPart) {
		return out, nil
	}
	return out, err
}

// attr returns the value of the attribute with the local name key.
func attr(s xml.StartElement, key string) string {
	for _, a := range s.Attr {
		if a.Name.Local == key {
			return a.Value
		}
	}
	return ""
}

// properties reads docProps/core.xml and app.xml into fields; the title and
// keywords also come back on their own.
func (p *pkg) properties() (fields []parse.Field, title string, tags []string, err error) {
	names := map[string]string{"title": "title", "creator": "author", "subject": "subject",
		"keywords": "keywords", "description": "description", "created": "created",
		"modified": "modified", "lastModifiedBy": "last_modified_by", "Application": "application", "Company": "company"}
	for _, part := range []string{"docProps/core.xml", "docProps/app.xml"} {
		var cur string
		var text strings.Builder
		err := p.decode(part, func(_ *xml.Decoder, t xml.Token) error {
			switch v := t.(type) {
			case xml.StartElement:
				cur = names[v.Name.Local]
				text.Reset()
			case xml.CharData:
				if cur != "" && text.Len() < 4096 {
					text.Write(v)
				}
			case xml.EndElement:
				if cur != "" {
					fields = append(fields, parse.Field{Key: cur, Value: text.String()})
				}
				cur = ""
			}
			return nil
		})
		if err != nil && !errors.Is(err, errNoPart) {
			return nil, "", nil, err
		}
	}
	for _, f := range fields {
		switch f.Key {
		case "title":
			title = f.Value
		case "keywords":
			tags = strings.FieldsFunc(f.Value, func(r rune) bool { return r == ',' || r == ';' })
		}
	}
	return fields, title, tags, nil
}

// finish turns a builder into the Doc's text, failing when it overflowed.
func finish(d *parse.Doc, b *parse.Builder, max int) (*parse.Doc, error) {
	if b.Over() {
		return nil, fmt.Errorf("%w: text over %d bytes", parse.ErrTooLarge, max)
	}
	d.Text, d.Parts = b.Text()
	return d, nil
}
