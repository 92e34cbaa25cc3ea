package engine

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/autorag/autorag/engine/record"
)

// pathFilter matches result paths against a --path glob: `*` and `?` stay
// within one path segment, `**` crosses segments, `[...]` is a class. A
// glob without `/` matches the file name in any directory; a glob ending in
// `/` matches everything below that directory.
//
// paths, when not nil, further limits results to those files (the files a
// metadata filter selected; see filter.go), and chunks to those chunk IDs
// in e-mail files, whose entries a filter selects one by one.
type pathFilter struct {
	re     *regexp.Regexp
	paths  map[string]bool
	chunks map[string]bool
}

func newPathFilter(glob string) (*pathFilter, error) {
	if glob == "" {
		return nil, nil
	}
	g := strings.TrimPrefix(glob, "./")
	if strings.HasSuffix(g, "/") {
		g += "**"
	}
	if !strings.Contains(g, "/") {
		g = "**/" + g
	}
	re, err := regexp.Compile("^" + globToRegexp(g) + "$")
	if err != nil {
		return nil, fmt.Errorf("bad --path glob %q: %w", glob, err)
	}
	return &pathFilter{re: re}, nil
}

func globToRegexp(g string) string {
	var sb strings.Builder
	for i := 0; i < len(g); i++ {
		switch c := g[i]; {
		case strings.HasPrefix(g[i:], "**/"):
			sb.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(g[i:], "**"):
			sb.WriteString(".*")
			i++
		case c == '*':
			sb.WriteString("[^/]*")
		case c == '?':
			sb.WriteString("[^/]")
		case c == '[':
			j := strings.IndexByte(g[i:], ']')
			if j < 0 {
				sb.WriteString(`\[`)
				continue
			}
			class := g[i+1 : i+j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			sb.WriteString("[" + class + "]")
			i += j
		default:
			sb.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return sb.String()
}

// match reports whether the chunk with ID id passes the filter.
func (f *pathFilter) match(id string) bool {
	if f == nil {
		return true
	}
	path, _ := record.SplitChunkID(id)
	if f.re != nil && !f.re.MatchString(path) {
		return false
	}
	switch {
	case f.paths == nil:
		return true
	case mayAttach(path):
		return f.chunks[id]
	}
	return f.paths[path]
}
