package syntax

import (
	"embed"
	"path"
	"strconv"
	"strings"
)

// queries holds the definitions query of each language, queries/<name>.scm:
// tree-sitter patterns capturing @name and @definition.<kind> (kind one of
// the Kind* constants), written for this package after the tags.scm queries
// the grammars ship. Patterns come most specific first: when two capture the
// same node, the earlier pattern's kind wins.
//
//go:embed queries/*.scm
var queries embed.FS

// moduleRev is the revision of the module's glue (scripts/treesitter/glue.c):
// bump it when a change there can change the definitions found.
const moduleRev = 1

// language is one grammar linked into the module.
type language struct {
	name    string // as the module and Languages name it
	grammar string // grammar@version the module was built from
	query   int    // revision of queries/<name>.scm; bump on every change
}

// languages in the order of Languages.
var languages = []language{
	{"python", "tree-sitter-python@0.25.0", 1},
	{"javascript", "tree-sitter-javascript@0.25.0", 1},
	{"rust", "tree-sitter-rust@0.24.2", 1},
}

// extensions maps a lowercased file extension, or a base name without one,
// to its language.
var extensions = map[string]string{
	".py": "python", ".pyi": "python", ".pyw": "python",
	".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
	".rs": "rust",
}

func lookup(name string) (language, bool) {
	for _, l := range languages {
		if l.name == name {
			return l, true
		}
	}
	return language{}, false
}

// LangOf returns the language of a file by its extension (or, for a few
// conventional names such as Rakefile, its base name), "" when no grammar
// of the module reads it. Go files map to "go" when the module has Go's
// grammar; the chunker may still prefer go/parser for them.
func LangOf(p string) string {
	base := path.Base(strings.ReplaceAll(p, "\\", "/"))
	if l, ok := extensions[strings.ToLower(path.Ext(base))]; ok {
		return l
	}
	return extensions[base]
}

// Languages returns the names of the languages Parse reads.
func Languages() []string {
	names := make([]string, len(languages))
	for i, l := range languages {
		names[i] = l.name
	}
	return names
}

// Version returns what the definitions of lang depend on, for the index's
// fingerprint: the grammar and its version, the query's revision and the
// glue's ("tree-sitter-python@0.25.0+q1m1"); "" for a language Parse does
// not read.
func Version(lang string) string {
	l, ok := lookup(lang)
	if !ok {
		return ""
	}
	return l.grammar + "+q" + strconv.Itoa(l.query) + "m" + strconv.Itoa(moduleRev)
}
