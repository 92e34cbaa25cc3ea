package copies

import "strings"

// Item is one result to group: its path and its document's signature.
type Item struct {
	Path string
	Sig  Signature
}

// Thresholds of Similarity above which the same file in two sibling
// folders is a copy: in the folders of two versions ("7.5", "latest")
// VersionMin; in the folders of two languages ("en", "pt-br": a
// translation) none; in two other folders SiblingMin. Files of other
// names are never copies, however alike (two pages that share a text are
// still two pages).
const (
	VersionMin = 0.3
	SiblingMin = 0.5
)

// IsCopy reports whether the documents a and b are copies of one another.
func IsCopy(a, b Item) bool {
	return isCopy(a.Path, b.Path, func() float64 { return Similarity(a.Sig, b.Sig) })
}

// isCopy is IsCopy of the documents at paths a and b, whose similarity sim
// gives when the folders are not two languages'.
func isCopy(a, b string, sim func() float64) bool {
	if a == b {
		return false
	}
	segA, segB, sib := Siblings(a, b)
	switch {
	case !sib:
		return false
	case isLanguage(segA) && isLanguage(segB):
		return true
	case isVersion(segA) && isVersion(segB):
		return sim() >= VersionMin
	}
	return sim() >= SiblingMin
}

// Prefer reports whether the copy at path b is to be shown rather than the
// one at a: b is in a folder named (the words of the query, the --path
// patterns, the query's language) and a is not; or neither is, both are
// languages' folders and b's is English's (a query of no known language
// is analyzed as English, and a site's other languages are most often
// its English pages translated); or b's folder is the preferred version
// (CompareVersions). Copies that are not siblings keep their rank order.
func Prefer(a, b string, named []string) bool {
	segA, segB, ok := Siblings(a, b)
	if !ok {
		return false
	}
	na, nb := isNamed(segA, named), isNamed(segB, named)
	if na != nb {
		return nb
	}
	if !na && isLanguage(segA) && isLanguage(segB) {
		return !isEnglish(segA) && isEnglish(segB)
	}
	return CompareVersions(segB, segA) > 0
}

// isEnglish reports a language folder of English ("en", "en-US").
func isEnglish(seg string) bool {
	lang, _, _ := strings.Cut(strings.ReplaceAll(strings.ToLower(seg), "_", "-"), "-")
	return lang == "en"
}

// isNamed reports whether seg is one of named, or a path segment of one.
func isNamed(seg string, named []string) bool {
	for _, n := range named {
		if strings.EqualFold(n, seg) {
			return true
		}
		for part := range strings.SplitSeq(n, "/") {
			if strings.EqualFold(strings.TrimPrefix(part, "!"), seg) && !strings.HasPrefix(n, "!") {
				return true
			}
		}
	}
	return false
}
