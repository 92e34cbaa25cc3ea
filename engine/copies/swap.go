package copies

import "strings"

// Swap returns the copy of the document at path to show in its place,
// among others (the paths of other indexed files): a copy of it (IsCopy,
// the signatures from sig) that Prefer picks over path and over every
// other such copy; "" when path is the copy to show. It is what shows the
// English (or the query's language's) page when the ranking reached only
// a translation of it.
func Swap(path string, others []string, named []string, sig func(path string) Signature) string {
	best := path
	for _, o := range others {
		if o == path || !Prefer(best, o, named) {
			continue
		}
		if isCopy(path, o, func() float64 { return Similarity(sig(path), sig(o)) }) {
			best = o
		}
	}
	if best == path {
		return ""
	}
	return best
}

// SiblingCandidates keeps the paths of all that may be siblings of path
// (Siblings): the same file name, as many folders deep. It is a cheap
// first cut over every indexed path.
func SiblingCandidates(path string, all []string) []string {
	name := path[strings.LastIndexByte(path, '/')+1:]
	depth := strings.Count(path, "/")
	var out []string
	for _, p := range all {
		if p != path && strings.HasSuffix(p, name) && strings.Count(p, "/") == depth {
			if _, _, ok := Siblings(path, p); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// InFolderOfCopies reports whether a folder of path is a language's or a
// version's: only then may a copy of it be preferred without the query
// naming a folder.
func InFolderOfCopies(path string) bool {
	segs := strings.Split(path, "/")
	for _, s := range segs[:len(segs)-1] {
		if isLanguage(s) || isVersion(s) {
			return true
		}
	}
	return false
}
