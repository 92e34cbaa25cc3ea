// Package mirrorview is what a query reads of the mirror: the mirrored
// documents of result paths, their copy signatures (package copies) and
// the metadata fields a filter names.
//
// It must never import package engine or a backend (engine/imports_test.go).
package mirrorview

import (
	"strings"

	"github.com/autorag/autorag/engine/copies"
	"github.com/autorag/autorag/mirror"
)

// Signatures returns the signature (package copies) of the document at a
// path, from its mirror (open returns the mirrored documents, Docs); nil
// for a path without one (it is never a copy). The mirrors are opened at
// the first call: a page with no two results in sibling folders asks for
// none.
func Signatures(open func() func(path string) *mirror.Doc) func(path string) copies.Signature {
	var docs func(path string) *mirror.Doc
	opened := false
	memo := map[string]copies.Signature{}
	return func(path string) copies.Signature {
		if s, ok := memo[path]; ok {
			return s
		}
		if !opened {
			docs, opened = open(), true
		}
		var s copies.Signature
		if docs != nil {
			if d := docs(path); d != nil {
				s = copies.Sign(d.Text)
			}
		}
		memo[path] = s
		return s
	}
}

// Docs returns the mirrored Doc of a path as the last refresh left it
// (its manifest and objects), memoized for one query; nil when there are
// no mirrors.
func Docs(manifest, objects string) func(path string) *mirror.Doc {
	m := mirror.OpenMirrors(manifest, objects)
	if m == nil {
		return nil
	}
	memo := map[string]*mirror.Doc{}
	return func(path string) *mirror.Doc {
		if d, ok := memo[path]; ok {
			return d
		}
		d, _ := m.DocAt(path)
		memo[path] = d
		return d
	}
}

// MetaOf is Meta for the mirrored doc d, or for its attachment of that name
// when attachment is set; nil when there is no doc.
func MetaOf(d *mirror.Doc, attachment string, filters []string, typ string) map[string]string {
	if d == nil {
		return nil
	}
	parser, lang, fields := d.Parser, d.Lang, d.Fields
	for _, a := range d.Attachments {
		if attachment != "" && a.Name == attachment {
			parser, lang, fields = a.Parser, a.Lang, a.Fields
		}
	}
	return Meta(filters, typ, parser, lang, fields)
}

// Meta picks the fields the --filter filters name from a document's (or
// attachment's) fields, with its type when --type asked (typ != "") and
// its language when a filter names lang.
func Meta(filters []string, typ, parser, lang string, fields []mirror.Field) map[string]string {
	meta := map[string]string{}
	if typ != "" {
		meta["type"] = mirror.TypeOf(parser, lang)
	}
	for _, f := range filters {
		k, _, _ := strings.Cut(f, "=")
		k = strings.ToLower(strings.TrimSpace(k))
		for _, fl := range fields {
			if fl.Key == k {
				meta[k] = fl.Value
			}
		}
		if k == "lang" {
			meta[k] = lang
		}
	}
	return meta
}
