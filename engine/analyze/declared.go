package analyze

import (
	"slices"
	"strings"
)

// Declared returns the chain of a language a document declares (a
// frontmatter lang, an HTML lang attribute, a BCP 47 tag such as "pt-BR"
// or "zh_CN"): the primary subtag's chain when there is one, English for a
// language without one (Japanese gets the chain it would get detected).
// ok is false when tag is no language tag: empty, or a primary subtag that
// is not two or three ASCII letters.
func Declared(tag string) (code string, ok bool) {
	primary, _, _ := strings.Cut(strings.TrimSpace(tag), "-")
	primary, _, _ = strings.Cut(primary, "_")
	if len(primary) < 2 || len(primary) > 3 {
		return "", false
	}
	for _, c := range []byte(primary) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return "", false
		}
	}
	primary = strings.ToLower(primary)
	for _, l := range Languages() {
		if l == primary {
			return l, true
		}
	}
	return English, true
}

// localeParents are the folders under which a folder named for a language
// holds a localized tree: Hugo's content/ja/, docs/es/, i18n/de/, ...
var localeParents = []string{"content", "docs", "doc", "i18n", "l10n", "locale", "locales", "translations", "lang", "langs"}

// unchained are language codes without a chain of their own that
// localized documentation trees commonly use: under a locale parent such
// a folder declares its language too (and gets the English chain), so a
// Japanese page's Latin words cannot make it Portuguese.
var unchained = []string{"am", "az", "bg", "bn", "ca", "cs", "et", "eu", "gl", "he", "hr", "hy", "id", "ja",
	"ka", "kk", "km", "ko", "lo", "lt", "lv", "mn", "ms", "my", "ne", "pl", "si", "sk", "sl", "sr", "sw",
	"ta", "te", "uk", "ur", "zh"}

// PathLanguage returns the chain of the language a path's folders declare:
// a folder named by a language code (or such a code and a region, "pt-br",
// "zh_CN") right under one of localeParents, as in content/ja/docs/x.md or
// docs/es/guide.md. Two-letter folders elsewhere say nothing ("it/" at the
// top of a repository holds integration tests more often than Italian):
// ok is false.
func PathLanguage(path string) (code string, ok bool) {
	dirs := strings.Split(strings.ReplaceAll(path, "\\", "/"), "/")
	dirs = dirs[:len(dirs)-1] // the file name declares nothing
	for i := 1; i < len(dirs); i++ {
		if !isLocaleParent(dirs[i-1]) {
			continue
		}
		primary, region, _ := strings.Cut(strings.ReplaceAll(dirs[i], "_", "-"), "-")
		if len(primary) != 2 || strings.Contains(region, "-") || len(region) > 4 {
			continue
		}
		primary = strings.ToLower(primary)
		if c, ok := Declared(primary); ok && (c == primary || slices.Contains(unchained, primary)) {
			return c, true
		}
	}
	return "", false
}

func isLocaleParent(dir string) bool {
	for _, p := range localeParents {
		if strings.EqualFold(dir, p) {
			return true
		}
	}
	return false
}
