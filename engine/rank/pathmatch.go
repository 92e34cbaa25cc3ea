package rank

import (
	"path"
	"strings"
)

// QueryTerms are the query's words as path matching compares them: split
// at identifier boundaries (Words), stemmed by stem (the index's
// analysis; nil keeps a word as it is), stop words (which stem to "")
// left out.
func QueryTerms(text string, stem func(string) string) map[string]bool {
	out := map[string]bool{}
	for _, w := range Words(text) {
		if s := stemWord(w, stem); s != "" {
			out[s] = true
		}
	}
	return out
}

func stemWord(w string, stem func(string) string) string {
	if stem == nil {
		return w
	}
	return stem(w)
}

// PathMatch compares the query's terms (QueryTerms) with the file's
// path: stem is the share of the words of the file's name (without its
// extensions) that the query has (router.ts and "how a router is
// created": 1; UpdateStatement.kt and "update and delete statement
// builders": 1; StatementBuilders.kt: 0.5), dir the share of the query's
// terms found among the folders' words.
func PathMatch(terms map[string]bool, p string, stem func(string) string) (stemScore, dirScore float64) {
	if len(terms) == 0 {
		return 0, 0
	}
	base := path.Base(p)
	if i := strings.IndexByte(base[min(1, len(base)):], '.'); i >= 0 {
		base = base[:i+min(1, len(base))]
	}
	n, hit := 0, 0
	for _, w := range Words(base) {
		s := stemWord(w, stem)
		if s == "" {
			continue
		}
		n++
		if terms[s] {
			hit++
		}
	}
	if n > 0 {
		stemScore = float64(hit) / float64(n)
	}
	inDirs := map[string]bool{}
	if d := path.Dir(p); d != "." {
		for _, w := range Words(d) {
			if s := stemWord(w, stem); terms[s] {
				inDirs[s] = true
			}
		}
	}
	return stemScore, float64(len(inDirs)) / float64(len(terms))
}
