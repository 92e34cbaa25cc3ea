package rank

import (
	"math"
	"path"
	"strings"
	"unicode/utf8"
)

// PathQuery is a query as path matching reads it (NewPathQuery).
type PathQuery struct {
	terms map[string]bool     // the stemmed terms
	names map[string]nameWord // the terms and the stems derived from them (derivedStems)
	words []string            // the query's words, stop words left out, in order
	stems []string            // their stems, one for each of words
}

// nameWord is what a stem found in a path stands for: the query's term,
// itself or derived from it.
type nameWord struct {
	term    string
	derived bool
}

// NewPathQuery splits text into words at identifier boundaries (Words),
// stems them with stem (the index's analysis; nil keeps a word as it is)
// and leaves stop words (which stem to "") out.
func NewPathQuery(text string, stem func(string) string) *PathQuery {
	q := &PathQuery{terms: map[string]bool{}}
	for _, w := range Words(text) {
		s := stemWord(w, stem)
		if s == "" {
			continue
		}
		q.terms[s] = true
		q.words = append(q.words, w)
		q.stems = append(q.stems, s)
	}
	q.names = make(map[string]nameWord, len(q.terms))
	for t := range q.terms {
		q.names[t] = nameWord{term: t}
	}
	for s, t := range derivedStems(q, stem) {
		q.names[s] = nameWord{term: t, derived: true}
	}
	return q
}

// QueryTerms are the query's stemmed terms (NewPathQuery).
func QueryTerms(text string, stem func(string) string) map[string]bool {
	return NewPathQuery(text, stem).terms
}

func stemWord(w string, stem func(string) string) string {
	if stem == nil {
		return w
	}
	return stem(w)
}

// PathMatch compares the query (NewPathQuery) with the file's path: stem
// is the share of the words of the file's name (without its extensions)
// that the query has (router.ts and "how a router is created": 1;
// UpdateStatement.kt and "update and delete statement builders": 1;
// StatementBuilders.kt: 0.5), a word that is an agent noun of a query
// word or whose agent noun the query has (derivedStems: logger.go and
// "logging", route.ts and "router") counting DerivedCredit, a word the
// query only abbreviates (Abbreviation: fs.c and "file system",
// client_ws.py and "WebSocket") counting AbbrevCredit; dir is the share
// of the query's terms found among the folders' words, or their agent
// nouns and verbs.
func PathMatch(q *PathQuery, p string, stem func(string) string) (stemScore, dirScore float64) {
	return PathMatchRare(q, p, stem, nil)
}

// PathMatchRare is PathMatch with each word of the file's name weighted
// by rare (NameRarity; nil weighs every word 1).
func PathMatchRare(q *PathQuery, p string, stem func(string) string, rare func(stem string) float64) (stemScore, dirScore float64) {
	if len(q.terms) == 0 {
		return 0, 0
	}
	n, hit := 0, 0.0
	for _, w := range Words(fileStem(p)) {
		s := stemWord(w, stem)
		if s == "" {
			continue
		}
		n++
		r := 1.0
		if rare != nil {
			r = rare(s)
		}
		if m, ok := q.names[s]; ok && !m.derived {
			hit += r
		} else if ok {
			hit += DerivedCredit * r
		} else if q.Abbreviation(w) {
			hit += AbbrevCredit * r
		}
	}
	if n > 0 {
		stemScore = hit / float64(n)
	}
	inDirs := map[string]bool{}
	if d := path.Dir(p); d != "." {
		for _, w := range Words(d) {
			s := stemWord(w, stem)
			if m, ok := q.names[s]; ok {
				inDirs[m.term] = true
			}
		}
	}
	return stemScore, float64(len(inDirs)) / float64(len(q.terms))
}

// fileStem is the file's name without its extensions.
func fileStem(p string) string {
	base := path.Base(p)
	if i := strings.IndexByte(base[min(1, len(base)):], '.'); i >= 0 {
		base = base[:i+min(1, len(base))]
	}
	return base
}

// AbbrevCredit is what a word of a file's name the query abbreviates
// counts in PathMatch (a word it has counts 1), chosen on codesearch-dev
// (docs/QUALITY.md).
const AbbrevCredit = 0.8

// Abbreviation reports a word of a file name that the query spells out
// rather than names: the initials of two to four consecutive query words (fs:
// "file system"; ws: "WebSocket", split at its capitals), two or three
// consecutive words run together (modelcards: "model cards"), or, at
// three letters or more, the start of a longer query word (iter:
// "iterator"; async: "asynchronously").
func (q *PathQuery) Abbreviation(w string) bool {
	if len(w) < 2 {
		return false
	}
	for i := range q.words {
		for k := 2; k <= 4 && i+k <= len(q.words); k++ {
			if initialsAre(q.words[i:i+k], w) {
				return true
			}
			if k <= 3 && (joinedIs(q.words[i:i+k], w) || joinedIs(q.stems[i:i+k], w)) {
				return true
			}
		}
		if len(w) >= 3 && len(q.words[i]) > len(w) && strings.HasPrefix(q.words[i], w) {
			return true
		}
	}
	return false
}

// initialsAre reports whether w is the first runes of ws run together
// (a word's first rune as range reads it: an invalid byte counts as
// U+FFFD), without building them: Abbreviation asks it of every word of
// every file name in a query's window.
func initialsAre(ws []string, w string) bool {
	var buf [4 * 4]byte
	b := buf[:0]
	for _, x := range ws {
		for _, r := range x {
			b = utf8.AppendRune(b, r)
			break
		}
	}
	return string(b) == w
}

// joinedIs reports whether w is ws run together (strings.Join(ws, "")),
// without joining them.
func joinedIs(ws []string, w string) bool {
	for _, x := range ws {
		if !strings.HasPrefix(w, x) {
			return false
		}
		w = w[len(x):]
	}
	return w == ""
}

// NameRarity weighs each word of a file name by how few of paths' files
// have it in their names, as an inverse document frequency over the
// ranking's window: 1 − RarityWeight·(1 − log(N/df)/log N) for a word in
// df of the N distinct files' names (1 for a word only one file has;
// 1 − RarityWeight for one every file has: "json" among nlohmann-json's
// json_pointer.hpp, json_sax.hpp, to_json.hpp, json.hpp).
func NameRarity(paths []string, stem func(string) string) func(string) float64 {
	df := map[string]int{}
	files := map[string]bool{}
	for _, p := range paths {
		if files[p] {
			continue
		}
		files[p] = true
		seen := map[string]bool{}
		for _, w := range Words(fileStem(p)) {
			if s := stemWord(w, stem); s != "" && !seen[s] {
				seen[s] = true
				df[s]++
			}
		}
	}
	n := float64(len(files))
	return func(s string) float64 {
		d := float64(df[s])
		if n < 2 || d <= 1 {
			return 1
		}
		return 1 - RarityWeight*(1-math.Log(n/d)/math.Log(n))
	}
}

// RarityWeight is how much a word common to the window's file names
// loses in PathMatchRare, chosen on codesearch-dev (docs/QUALITY.md).
const RarityWeight = 1.0
