package mirror

import (
	"strings"
	"testing"
)

// TestRuleMatch checks single patterns against git's documented semantics
// (gitignore(5) and git's t3070-wildmatch cases).
func TestRuleMatch(t *testing.T) {
	tests := []struct {
		pattern string
		path    string
		isDir   bool
		want    bool
	}{
		// No slash: the base name at any depth.
		{"*.log", "a.log", false, true},
		{"*.log", "x/y/a.log", false, true},
		{"*.log", "a.log.txt", false, false},
		{"*.log", "logs", true, false},
		{"foo", "foo", false, true},
		{"foo", "a/foo", true, true},
		{"foo", "foobar", false, false},
		// Leading slash: anchored to the ignore file's directory.
		{"/build", "build", true, true},
		{"/build", "src/build", true, false},
		// Middle slash: anchored too.
		{"doc/frotz", "doc/frotz", true, true},
		{"doc/frotz", "a/doc/frotz", true, false},
		{"doc/frotz/", "doc/frotz", true, true},
		// Trailing slash: directories only.
		{"build/", "build", true, true},
		{"build/", "build", false, false},
		{"build/", "src/build", true, true},
		// One '*' never crosses '/'.
		{"foo/*", "foo/x", false, true},
		{"foo/*", "foo/x/y", false, false},
		{"a*b", "axxb", false, true},
		{"x/a*b", "x/a/b", false, false},
		{"foo/*/bar", "foo/x/bar", false, true},
		{"foo/*/bar", "foo/bar", false, false},
		{"foo/*/bar", "foo/x/y/bar", false, false},
		// Leading "**/".
		{"**/foo", "foo", false, true},
		{"**/foo", "a/b/foo", false, true},
		{"**/foo/bar", "foo/bar", false, true},
		{"**/foo/bar", "x/y/foo/bar", false, true},
		{"**/foo/bar", "x/foo/baz", false, false},
		// Trailing "/**".
		{"abc/**", "abc/x", false, true},
		{"abc/**", "abc/x/y", false, true},
		{"abc/**", "abc", true, false},
		{"abc/**", "x/abc/y", false, false},
		// Middle "/**/".
		{"a/**/b", "a/b", false, true},
		{"a/**/b", "a/x/b", false, true},
		{"a/**/b", "a/x/y/b", false, true},
		{"a/**/b", "a/xb", false, false},
		{"**", "anything/at/all", false, true},
		// "**" not between slashes is an ordinary '*'.
		{"foo**bar", "fooxbar", false, true},
		{"x/foo**bar", "x/foo/bar", false, false},
		// '?' and classes.
		{"?.txt", "a.txt", false, true},
		{"?.txt", "ab.txt", false, false},
		{"?.txt", "é.txt", false, true},
		{"[abc].txt", "b.txt", false, true},
		{"[abc].txt", "d.txt", false, false},
		{"[!abc].txt", "d.txt", false, true},
		{"[^abc].txt", "a.txt", false, false},
		{"[a-c]x", "bx", false, true},
		{"[a-c]x", "dx", false, false},
		{"[]]x", "]x", false, true},
		{"[!]]x", "ax", false, true},
		{"[[:digit:]]x", "7x", false, true},
		{"[[:digit:]]x", "ax", false, false},
		{"[[:upper:][:digit:]]", "Q", false, true},
		{"[é]", "é", false, true},
		{"x[/]y", "x/y", false, false},
		// Escapes.
		{`\#file`, "#file", false, true},
		{`\!important`, "!important", false, true},
		{`a\*b`, "a*b", false, true},
		{`a\*b`, "axb", false, false},
		// Trailing spaces are dropped unless escaped.
		{"foo   ", "foo", false, true},
		{`foo\ `, "foo ", false, true},
		{`foo\ `, "foo", false, false},
	}
	for _, tt := range tests {
		r, ok := parseRule(tt.pattern)
		if !ok {
			t.Errorf("parseRule(%q) rejected", tt.pattern)
			continue
		}
		base := tt.path[strings.LastIndexByte(tt.path, '/')+1:]
		if got := r.matches(tt.path, base, tt.isDir); got != tt.want {
			t.Errorf("pattern %q vs %q (dir=%v) = %v, want %v", tt.pattern, tt.path, tt.isDir, got, tt.want)
		}
	}
}

func TestParseRulesSkipsBlanksAndComments(t *testing.T) {
	rs := parseRules([]byte("\uFEFF# comment\n\n   \n*.o\r\n!keep.o\n/\n!\n"))
	if len(rs) != 2 {
		t.Fatalf("got %d rules, want 2: %+v", len(rs), rs)
	}
	if rs[0].pattern != "*.o" || rs[0].negate || rs[1].pattern != "keep.o" || !rs[1].negate {
		t.Errorf("rules = %+v", rs)
	}
}

// frames builds the ignore stack the walk would hold when visiting path,
// from "dir:name" -> file content (name "exclude" is .git/info/exclude).
func frames(t *testing.T, files map[string]string, path string) ignoreStack {
	t.Helper()
	byDir := map[string]*ignoreFrame{}
	var order []string
	for key, content := range files {
		dir, name, _ := strings.Cut(key, ":")
		kind := ignoreFileKind(name)
		if name == "exclude" {
			kind = kindExclude
		}
		if kind < 0 {
			t.Fatalf("bad key %q", key)
		}
		if dir != "" && !strings.HasPrefix(path, dir+"/") {
			continue // not an ancestor of path: not on the walk's stack
		}
		f := byDir[dir]
		if f == nil {
			f = &ignoreFrame{prefix: dir}
			byDir[dir] = f
			order = append(order, dir)
		}
		f.sets[kind] = parseRules([]byte(content))
	}
	// Parents before children: shorter prefixes first.
	var st ignoreStack
	for n := 0; len(st) < len(order); n++ {
		for _, d := range order {
			if len(d) == n {
				st = append(st, byDir[d])
			}
		}
	}
	return st
}

func TestIgnoreStackPrecedence(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		path  string
		want  bool
	}{
		{"later rule wins", map[string]string{":.gitignore": "*.log\n!keep.log"}, "keep.log", false},
		{"earlier negation loses", map[string]string{":.gitignore": "!keep.log\n*.log"}, "keep.log", true},
		{"child re-includes", map[string]string{":.gitignore": "*.log", "sub:.gitignore": "!keep.log"}, "sub/keep.log", false},
		{"child rule only below child", map[string]string{":.gitignore": "*.log", "sub:.gitignore": "!keep.log"}, "keep.log", true},
		{"child ignores", map[string]string{"sub:.gitignore": "*.txt"}, "sub/a.txt", true},
		{"child rules do not reach siblings", map[string]string{"sub:.gitignore": "*.txt"}, "other/a.txt", false},
		{"child anchored relative to child", map[string]string{"sub:.gitignore": "/x.txt"}, "sub/x.txt", true},
		{"child anchored not deeper", map[string]string{"sub:.gitignore": "/x.txt"}, "sub/d/x.txt", false},
		{".ignore beats .gitignore", map[string]string{":.gitignore": "*.md", ":.ignore": "!README.md"}, "README.md", false},
		{".autoragignore beats .ignore", map[string]string{":.ignore": "!a.txt", ":.autoragignore": "a.txt"}, "a.txt", true},
		{"kind beats depth", map[string]string{":.ignore": "!x.log", "sub:.gitignore": "x.log"}, "sub/x.log", false},
		{"exclude applies", map[string]string{":exclude": "secret.txt"}, "d/secret.txt", true},
		{".gitignore beats exclude", map[string]string{":exclude": "secret.txt", ":.gitignore": "!secret.txt"}, "secret.txt", false},
		{"no rules", map[string]string{":.gitignore": "*.o"}, "main.c", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := frames(t, tt.files, tt.path).ignored(tt.path, false); got != tt.want {
				t.Errorf("ignored(%q) = %v, want %v", tt.path, got, tt.want)
			}
		})
	}
}
