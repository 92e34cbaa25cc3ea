package engine

import (
	"strings"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/copies"
	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/mirror"
)

// resultPage is how a ranking becomes results for o: the per-file limit,
// the collapse of repeated passages and of copies of one document across
// folders (copySignatures) with the copy the query names (a version, a
// folder of --path, the query's language) shown, and what explain says.
func (e *Engine) resultPage(o QueryOptions, k, perFile int, mode string, f rank.Fusion) rank.Page {
	pg := rank.Page{K: k, PerFile: perFile, Collapse: !o.NoCollapse, Explain: o.Explain, Mode: mode, Fusion: f, Query: rankQuery(o.Text)}
	if pg.Collapse {
		pg.Copies = e.copySignatures()
		pg.Named = append(strings.Fields(strings.ToLower(o.Text)), o.pathPatterns()...)
		if l := analyze.DetectQuery(o.Text); l != "" {
			pg.Named = append(pg.Named, l) // a translation in the query's language is shown
		}
	}
	return pg
}

// copySignatures returns the signature (package copies) of the document
// at a path, from its mirror (mirrorDocs); nil for a path without one (it
// is never a copy). The mirrors are opened at the first call: a page with
// no two results in sibling folders asks for none.
func (e *Engine) copySignatures() func(path string) copies.Signature {
	var docs func(path string) *mirror.Doc
	opened := false
	memo := map[string]copies.Signature{}
	return func(path string) copies.Signature {
		if s, ok := memo[path]; ok {
			return s
		}
		if !opened {
			docs, opened = e.mirrorDocs(), true
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

// mirrorDocs returns the mirrored Doc of a path as the last refresh left
// it, memoized for one query; nil when there are no mirrors.
func (e *Engine) mirrorDocs() func(path string) *mirror.Doc {
	m := mirror.OpenMirrors(e.Layout.ManifestPath(), e.Layout.ObjectsDir())
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

// addMeta sets on each result the metadata o filtered on (Result.Meta):
// the values of the fields --filter named, and the type --type did, from
// the file's mirror (or its attachment's), so a user sees what to type.
func (e *Engine) addMeta(res *QueryResult, o QueryOptions) {
	if len(o.Filters) == 0 && o.Type == "" || len(res.Results) == 0 {
		return
	}
	docs := e.mirrorDocs()
	if docs == nil {
		return
	}
	for i := range res.Results {
		r := &res.Results[i]
		d := docs(r.Path)
		if d == nil {
			continue
		}
		parser, lang, fields := d.Parser, d.Lang, d.Fields
		for _, a := range d.Attachments {
			if a.Name == r.Attachment && r.Attachment != "" {
				parser, lang, fields = a.Parser, a.Lang, a.Fields
			}
		}
		r.Meta = metaOf(o, parser, lang, fields)
	}
}

// metaOf picks the fields o's filters name.
func metaOf(o QueryOptions, parser, lang string, fields []mirror.Field) map[string]string {
	meta := map[string]string{}
	if o.Type != "" {
		meta["type"] = mirror.TypeOf(parser, lang)
	}
	for _, f := range o.Filters {
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
