package copies

import (
	"strconv"
	"strings"
)

// Siblings reports whether paths a and b are the same file name in
// folders that differ in exactly one segment, and returns those segments
// ("7.5", "5.1" for reference/7.5/x.md and reference/5.1/x.md).
func Siblings(a, b string) (segA, segB string, ok bool) {
	sa, sb := strings.Split(a, "/"), strings.Split(b, "/")
	if len(sa) != len(sb) || sa[len(sa)-1] != sb[len(sb)-1] {
		return "", "", false
	}
	diff := -1
	for i := range sa {
		if sa[i] != sb[i] {
			if diff >= 0 {
				return "", "", false
			}
			diff = i
		}
	}
	if diff < 0 {
		return "", "", false
	}
	return sa[diff], sb[diff], true
}

// aliases are folder names that stand for the newest version, best first.
var aliases = []string{"latest", "current", "stable", "main", "master"}

// CompareVersions orders two folder names by which copy to prefer: > 0
// when a is preferred. Aliases of the newest version come first, then
// version numbers newest first (7.10 > 7.5 > 5.1, v2 > v1.9), then
// anything else; 0 when neither is preferred (the rank decides).
func CompareVersions(a, b string) int {
	ra, rb := aliasRank(a), aliasRank(b)
	if ra != rb {
		return rb - ra // a lower alias rank is preferred
	}
	va, oka := parseVersion(a)
	vb, okb := parseVersion(b)
	switch {
	case oka && okb:
		return compareNumbers(va, vb)
	case oka:
		return 1
	case okb:
		return -1
	}
	return 0
}

// aliasRank is a's place in aliases, len(aliases) when it is none.
func aliasRank(a string) int {
	for i, al := range aliases {
		if strings.EqualFold(a, al) {
			return i
		}
	}
	return len(aliases)
}

// parseVersion reads "7.5", "v3.10.1", "2024.1" or "1": numbers separated
// by dots, optionally after a "v".
func parseVersion(s string) ([]int, bool) {
	s = strings.TrimPrefix(strings.ToLower(s), "v")
	if s == "" {
		return nil, false
	}
	var out []int
	for p := range strings.SplitSeq(s, ".") {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}

func compareNumbers(a, b []int) int {
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y int
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return x - y
		}
	}
	return 0
}

// isVersion reports a folder name that names a version: a version number
// or an alias of the newest one.
func isVersion(seg string) bool {
	_, ok := parseVersion(seg)
	return ok || aliasRank(seg) < len(aliases)
}

// languages are the language codes documentation sites name folders by,
// without those that are also common names of programming languages or
// tools (cs, ts, ml, go is none).
var languages = map[string]bool{
	"ar": true, "bg": true, "bn": true, "ca": true, "da": true, "de": true, "el": true, "en": true, "es": true,
	"et": true, "fa": true, "fi": true, "fr": true, "he": true, "hi": true, "hr": true, "hu": true, "id": true,
	"it": true, "ja": true, "ko": true, "lt": true, "lv": true, "nb": true, "nl": true, "no": true, "pl": true,
	"pt": true, "ro": true, "ru": true, "sk": true, "sl": true, "sr": true, "sv": true, "th": true, "tr": true,
	"uk": true, "vi": true, "zh": true,
}

// isLanguage reports a folder name that is a language code, with or
// without a region ("pt", "pt-br", "zh_TW").
func isLanguage(seg string) bool {
	lang, region, _ := strings.Cut(strings.ReplaceAll(strings.ToLower(seg), "_", "-"), "-")
	if !languages[lang] {
		return false
	}
	return region == "" || len(region) == 2 || len(region) == 4
}
