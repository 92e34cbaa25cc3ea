package engine

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/autorag/autorag/mirror"
)

// unknownPaths warns of the paths of a targeted refresh that name nothing:
// no such file or directory, and nothing indexed under that name either (a
// typo would otherwise answer "unchanged" and say no more).
func (e *Engine) unknownPaths(paths []string, prev *mirror.Manifest) []string {
	var out []string
	for _, p := range paths {
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(e.Layout.Root, p)
		}
		if _, err := os.Lstat(abs); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		rel, err := filepath.Rel(e.Layout.Root, abs)
		if err != nil || indexedUnder(prev, filepath.ToSlash(rel)) {
			continue
		}
		out = append(out, p+": no such file or directory, and nothing was indexed under it")
	}
	return out
}

// indexedUnder reports whether m has rel or anything below it.
func indexedUnder(m *mirror.Manifest, rel string) bool {
	for _, en := range m.Entries {
		if en.Path == rel || strings.HasPrefix(en.Path, rel+"/") {
			return true
		}
	}
	return false
}
