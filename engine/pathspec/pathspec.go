package pathspec

import (
	"fmt"
	"regexp"
	"strings"
)

// Set is a compiled list of --path patterns.
type Set struct {
	include, exclude []*regexp.Regexp
	patterns         []string
}

// maxAlternatives bounds what brace sets may expand to.
const maxAlternatives = 256

// Compile compiles patterns; nil or empty yields a nil Set, which matches
// every path. A pattern is cleaned first: a leading "./" and a trailing
// "/" name the same thing without them.
func Compile(patterns []string) (*Set, error) {
	var s Set
	for _, p := range patterns {
		exclude := strings.HasPrefix(p, "!")
		clean := cleanPattern(strings.TrimPrefix(p, "!"))
		if clean == "" {
			return nil, fmt.Errorf("--path %q: an empty pattern", p)
		}
		alts, err := expandBraces(clean)
		if err != nil {
			return nil, fmt.Errorf("--path %q: %w", p, err)
		}
		for _, a := range alts {
			re, err := regexp.Compile("^" + patternRegexp(a) + "$")
			if err != nil {
				return nil, fmt.Errorf("--path %q: %w", p, err)
			}
			if exclude {
				s.exclude = append(s.exclude, re)
			} else {
				s.include = append(s.include, re)
			}
		}
		s.patterns = append(s.patterns, p)
	}
	if len(s.patterns) == 0 {
		return nil, nil
	}
	return &s, nil
}

// Match reports whether path (relative to the root, '/'-separated) is in
// the set.
func (s *Set) Match(path string) bool {
	if s == nil {
		return true
	}
	for _, re := range s.exclude {
		if re.MatchString(path) {
			return false
		}
	}
	if len(s.include) == 0 {
		return true
	}
	for _, re := range s.include {
		if re.MatchString(path) {
			return true
		}
	}
	return false
}

// String is the patterns as given, for messages.
func (s *Set) String() string {
	if s == nil {
		return ""
	}
	return strings.Join(s.patterns, " ")
}

// cleanPattern drops "./" prefixes, repeated slashes and a trailing "/".
func cleanPattern(p string) string {
	for strings.HasPrefix(p, "./") {
		p = strings.TrimLeft(p[2:], "/")
	}
	for strings.Contains(p, "//") {
		p = strings.ReplaceAll(p, "//", "/")
	}
	if p == "." {
		return "**"
	}
	return strings.TrimSuffix(p, "/")
}

// patternRegexp is the regular expression of one brace-free pattern. A
// pattern matches the path itself or, when the path is below what it
// names, everything under it (so a directory stands for its subtree). One
// without "/" may name a file or directory at any depth.
func patternRegexp(p string) string {
	re := globRegexp(p)
	if !strings.Contains(p, "/") && p != "**" {
		re = "(?:.*/)?" + re
	}
	return re + "(?:/.*)?"
}

// globRegexp translates glob syntax to a regular expression.
func globRegexp(g string) string {
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

// expandBraces expands every {a,b,...} of p (nested ones too) into the
// patterns it stands for. A brace without its pair is literal.
func expandBraces(p string) ([]string, error) {
	open := strings.IndexByte(p, '{')
	if open < 0 {
		return []string{p}, nil
	}
	depth, close := 0, -1
	var cuts []int
	for i := open; i < len(p) && close < 0; i++ {
		switch p[i] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				close = i
			}
		case ',':
			if depth == 1 {
				cuts = append(cuts, i)
			}
		}
	}
	if close < 0 {
		return []string{p}, nil
	}
	rests, err := expandBraces(p[close+1:])
	if err != nil {
		return nil, err
	}
	var out []string
	start := open + 1
	for _, end := range append(cuts, close) {
		alts, err := expandBraces(p[start:end])
		if err != nil {
			return nil, err
		}
		for _, a := range alts {
			for _, r := range rests {
				out = append(out, p[:open]+a+r)
			}
		}
		if len(out) > maxAlternatives {
			return nil, fmt.Errorf("brace sets expand to more than %d patterns", maxAlternatives)
		}
		start = end + 1
	}
	return out, nil
}
