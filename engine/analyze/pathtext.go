package analyze

import "strings"

//semguard:begin path-text

// PathText is the text of a chunk's path field: the names of the folders
// of path and the file's name without its extension, space-separated
// ("lib/colors.bash": "lib colors"; "src/UpdateStatement.kt": "src
// UpdateStatement"; "app/foo.test.ts": "app foo test"). A folder named by
// a language code ("en", "es", "pt-br", "zh_CN": one this package knows)
// is left out: it says which translation a page is, and "en" and "es"
// are Spanish words. The backends analyze the text with the English
// chain (Analyzer), which splits identifiers and stems their words, so
// that BM25 finds a file by the words of its name (docs/QUALITY.md: the
// path field).
func PathText(path string) string {
	dirs := strings.Split(path, "/")
	name := dirs[len(dirs)-1]
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	words := make([]string, 0, len(dirs))
	for _, d := range dirs[:len(dirs)-1] {
		if !isLanguageFolder(d) {
			words = append(words, d)
		}
	}
	return strings.ReplaceAll(strings.Join(append(words, name), " "), ".", " ")
}

// isLanguageFolder reports a folder named by a two-letter language code
// with a chain of its own or among unchained, with or without a region.
func isLanguageFolder(dir string) bool {
	primary, region, _ := strings.Cut(strings.ReplaceAll(dir, "_", "-"), "-")
	if len(primary) != 2 || len(region) > 4 {
		return false
	}
	primary = strings.ToLower(primary)
	for _, l := range Languages() {
		if l == primary {
			return true
		}
	}
	for _, l := range unchained {
		if l == primary {
			return true
		}
	}
	return false
}

//semguard:end path-text
