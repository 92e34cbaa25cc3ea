package backend

import "strings"

//semguard:begin path-words

// PathText is the text of a chunk's path field: the names of the folders
// of path and the file's name without its extension, space-separated
// ("lib/colors.bash": "lib colors"; "src/UpdateStatement.kt": "src
// UpdateStatement"; "app/foo.test.ts": "app foo test"). A backend analyzes
// it with the English chain, which splits identifiers and stems their
// words, so that BM25 finds a file by the words of its name
// (docs/QUALITY.md: the path field).
func PathText(path string) string {
	name := path[strings.LastIndexByte(path, '/')+1:]
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		path = path[:len(path)-len(name)+i]
	}
	return strings.NewReplacer("/", " ", ".", " ").Replace(path)
}

//semguard:end path-words
