package mirror

import (
	"bytes"
	"strings"
)

// Ignore rules follow gitignore(5) as ripgrep applies them:
//
//   - Every directory may hold .autoragignore, .ignore and .gitignore; their
//     rules apply to that directory and everything below it, with patterns
//     relative to that directory. .git/info/exclude applies from the root.
//   - Precedence is by kind first, like ripgrep: a match in any
//     .autoragignore beats any .ignore match, which beats any .gitignore
//     match, which beats .git/info/exclude. Within one kind the deepest
//     directory with a matching rule decides, and within one file the last
//     matching rule decides ("!" rules re-include).
//   - A directory that is ignored is not descended, so nothing inside it can
//     be re-included (git's rule).
//   - .gitignore applies whether or not the root is a git repository.
//   - A hidden file or directory (its name starts with a dot) that no rule
//     matches is ignored, as ripgrep does without --hidden; a "!" rule that
//     matches it re-includes it.

// Ignore sources in precedence order (a lower kind wins).
const (
	kindAutorag = iota // .autoragignore
	kindIgnore         // .ignore
	kindGit            // .gitignore
	kindExclude        // .git/info/exclude, root only
	numKinds
)

// ignoreFileNames are the names ignoreFileKind knows.
var ignoreFileNames = []string{".autoragignore", ".ignore", ".gitignore"}

// ignoreFileKind returns the kind of an ignore file by name, or -1.
func ignoreFileKind(name string) int {
	switch name {
	case ".autoragignore":
		return kindAutorag
	case ".ignore":
		return kindIgnore
	case ".gitignore":
		return kindGit
	}
	return -1
}

// rule is one parsed pattern line.
type rule struct {
	pattern  string // wildmatch pattern, leading and trailing '/' removed
	negate   bool   // "!pattern": re-include
	dirOnly  bool   // "pattern/": directories only
	basename bool   // no '/' inside: match the base name at any depth
	literal  bool   // no glob characters: compare as a string
	suffix   string // pattern is "*"+suffix with a literal suffix (basename rules)
}

// ruleSet is the parsed content of one ignore file, in file order.
type ruleSet []rule

// parseRules parses an ignore file.
func parseRules(data []byte) ruleSet {
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	var rs ruleSet
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if r, ok := parseRule(line); ok {
			rs = append(rs, r)
		}
	}
	return rs
}

// parseRule parses one line; ok is false for blanks and comments.
func parseRule(line string) (rule, bool) {
	if line == "" || line[0] == '#' {
		return rule{}, false
	}
	line = trimTrailingSpaces(line)
	var r rule
	if strings.HasPrefix(line, "!") {
		r.negate, line = true, line[1:]
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly, line = true, line[:len(line)-1]
	}
	if !strings.Contains(line, "/") {
		r.basename = true
	}
	line = strings.TrimPrefix(line, "/")
	if line == "" {
		return rule{}, false
	}
	r.pattern = line
	r.literal = !strings.ContainsAny(line, `*?[\`)
	if rest, ok := strings.CutPrefix(line, "*"); ok && r.basename && !strings.ContainsAny(rest, `*?[\`) {
		r.suffix = rest
	}
	return r, true
}

// trimTrailingSpaces removes trailing spaces unless escaped with '\'
// (git's trim_trailing_spaces).
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

// match reports whether any rule matches rel (the path relative to the
// directory holding the ignore file) and, if so, whether the last matching
// rule ignores it.
func (rs ruleSet) match(rel, base string, isDir bool) (matched, ignored bool) {
	for i := len(rs) - 1; i >= 0; i-- {
		if rs[i].matches(rel, base, isDir) {
			return true, !rs[i].negate
		}
	}
	return false, false
}

func (r *rule) matches(rel, base string, isDir bool) bool {
	if r.dirOnly && !isDir {
		return false
	}
	target := rel
	if r.basename {
		target = base
	}
	switch {
	case r.literal:
		return target == r.pattern
	case r.suffix != "":
		return strings.HasSuffix(target, r.suffix)
	}
	return wildmatch(r.pattern, target)
}

// ignoreFrame holds the rules of one directory.
type ignoreFrame struct {
	prefix string // the directory, relative to the root ("" for the root)
	sets   [numKinds]ruleSet
}

// ignoreStack is the chain of frames from the root down to the directory
// being walked. Only directories with rules are on it.
type ignoreStack []*ignoreFrame

// ignored reports whether rel (relative to the root) is excluded: by the
// deciding rule of its ignore files or, when no rule matches it, because it
// is hidden (isHidden).
func (st ignoreStack) ignored(rel string, isDir bool) bool {
	base := rel[strings.LastIndexByte(rel, '/')+1:]
	for kind := range numKinds {
		for i := len(st) - 1; i >= 0; i-- {
			f := st[i]
			if len(f.sets[kind]) == 0 {
				continue
			}
			sub := rel
			if f.prefix != "" {
				sub = rel[len(f.prefix)+1:]
			}
			if m, ign := f.sets[kind].match(sub, base, isDir); m {
				return ign
			}
		}
	}
	return isHidden(base)
}

// isHidden reports whether a file or directory name starts with a dot.
// Hidden entries are skipped as ripgrep skips them by default (editor and
// tool state, CI configuration, agents' folders: on FastAPI's tree
// .agents/skills/ reached the results of docs questions), unless a "!"
// rule of an ignore file names them: "!.github/" in .autoragignore indexes
// that folder, as it makes ripgrep search it.
func isHidden(name string) bool { return len(name) > 1 && name[0] == '.' }

// hasHiddenPart reports whether a component of the relative path rel is
// hidden.
func hasHiddenPart(rel string) bool {
	for part := range strings.SplitSeq(rel, "/") {
		if isHidden(part) {
			return true
		}
	}
	return false
}
