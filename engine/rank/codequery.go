package rank

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind is what a query to a code search looks like (QueryKind).
type Kind int

// Query kinds.
const (
	// KindNatural is a question or description in words, in any language.
	KindNatural Kind = iota
	// KindIdentifier names a symbol: one or a few tokens, at least one of
	// them spelt like code (StringUtils, get_openapi, basic_json,
	// Router.add), or a declaration ("def get_openapi", "type Node").
	KindIdentifier
	// KindPath names a file or folder (internal/data/node.go, router.ts).
	KindPath
	// KindError is an error message or a stack-trace line.
	KindError
)

func (k Kind) String() string {
	return [...]string{"natural language", "identifier", "path", "error message"}[k]
}

// declWords open a declaration in the languages the chunker knows; a
// query starting with one names the symbol after it.
var declWords = map[string]bool{"def": true, "class": true, "func": true, "fn": true, "function": true, "type": true,
	"struct": true, "interface": true, "trait": true, "object": true, "enum": true, "fun": true, "defmodule": true,
	"defp": true, "module": true, "impl": true, "const": true, "val": true, "var": true, "let": true, "typedef": true}

// QueryKind says what text looks like. It looks only at the spelling:
// a path has a '/' or a file extension and no spaces; an error message
// has a word ending in Error or Exception followed by ':', or "panic:",
// "Traceback", "error:" or "failed to"; one word, or two or three with one
// spelt like code or opened by a declaration keyword, name a symbol;
// everything else is natural language.
func QueryKind(text string) Kind {
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return KindNatural
	}
	lower := strings.ToLower(text)
	if isErrorText(fields, lower) {
		return KindError
	}
	if len(fields) == 1 && isPathToken(fields[0]) {
		return KindPath
	}
	if len(fields) == 1 {
		return KindIdentifier
	}
	if len(fields) <= 3 && (declWords[strings.ToLower(fields[0])] || anyCodeLike(fields)) {
		return KindIdentifier
	}
	return KindNatural
}

func isErrorText(fields []string, lower string) bool {
	for _, m := range []string{"panic:", "traceback (most recent", "error:", "exception:", "failed to ", "fatal:", "undefined reference", "segmentation fault"} {
		if strings.Contains(lower, m) {
			return true
		}
	}
	for _, f := range fields {
		f = strings.TrimRight(f, ":")
		if len(f) > 5 && (strings.HasSuffix(f, "Error") || strings.HasSuffix(f, "Exception")) && strings.Contains(lower, ":") {
			return true
		}
	}
	return false
}

// isPathToken: a slash between names, or a name with a known file
// extension (router.ts, colors.bash), not a qualified call (Router.add).
func isPathToken(f string) bool {
	if strings.ContainsAny(f, "/\\") && len(strings.Trim(f, "/\\")) > 0 {
		return true
	}
	i := strings.LastIndexByte(f, '.')
	if i <= 0 || i == len(f)-1 {
		return false
	}
	return fileExts[f[i+1:]]
}

// fileExts are the extensions that make a lone token a file name.
var fileExts = map[string]bool{}

func init() {
	for _, e := range strings.Fields(`go py pyi js mjs cjs ts tsx jsx java kt kts scala sc rs rb c h cc cpp cxx hpp hh cs php
		swift m mm lua ex exs erl hrl hs ml mli sh bash zsh fish ps1 md rst txt adoc json yaml yml toml xml html htm css
		scss less sql proto gradle vue svelte dart r jl clj cljs el vim cfg ini conf mod sum lock cmake mk dockerfile tf
		zig nim pl pm groovy fs fsx vb asm s`) {
		fileExts[e] = true
	}
}

func anyCodeLike(fields []string) bool {
	for _, f := range fields {
		if CodeLike(f) {
			return true
		}
	}
	return false
}

// CodeLike reports a token spelt like an identifier rather than a word:
// an inner capital (camelCase, HTTPServer), an underscore, "::", "." or
// "()" between names, or a digit after a letter (utf8, int64).
func CodeLike(tok string) bool {
	tok = strings.Trim(tok, "`'\",;")
	if strings.HasSuffix(tok, "()") || strings.Contains(tok, "::") || strings.Contains(strings.Trim(tok, "_"), "_") {
		return true
	}
	rs := []rune(tok)
	for i := 1; i < len(rs); i++ {
		if unicode.IsUpper(rs[i]) && unicode.IsLetter(rs[i-1]) || unicode.IsDigit(rs[i]) && unicode.IsLetter(rs[i-1]) {
			return true
		}
		if rs[i-1] == '.' && unicode.IsLetter(rs[i]) && i > 1 && unicode.IsLetter(rs[i-2]) {
			return true
		}
	}
	return false
}

// Identifiers are the tokens of text a definition may be named by, with
// punctuation around them and a qualifier before the last '.', "::" or ':'
// dropped ("Router.add" is add), and a path token's folders and file
// extension dropped ("binding/json.go" is json): every token but
// declaration keywords for an identifier query, only the code-like ones
// (CodeLike) otherwise.
func Identifiers(text string, kind Kind) []string {
	var out []string
	for _, f := range strings.Fields(text) {
		if declWords[strings.ToLower(f)] || kind != KindIdentifier && !CodeLike(f) {
			continue
		}
		f = strings.TrimSuffix(strings.Trim(f, "`'\",;:()[]{}<>"), "()")
		if isPathToken(f) {
			f = pathStem(f) // binding/json.go: json, not go
		} else if i := strings.LastIndexAny(f, ".:"); i >= 0 {
			f = f[i+1:]
		}
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// pathStem is the last name of a path token without its file extension.
func pathStem(f string) string {
	f = f[strings.LastIndexAny(f, "/\\")+1:]
	if i := strings.LastIndexByte(f, '.'); i > 0 && fileExts[f[i+1:]] {
		f = f[:i]
	}
	return f
}

// Words splits s into lowercase words: at every character that is not a
// letter or digit, between a lower-case letter or digit and a capital
// (camelCase), before the last capital of a run followed by a lower-case
// letter (HTTPServer: http, server), and between letters and digits.
func Words(s string) []string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return wordsRunes(s)
		}
	}
	return wordsASCII(s)
}

// wordsASCII is Words of an ASCII s, split a byte at a time: each word is
// a piece of s, lowercased (strings.ToLower copies only a word that has a
// capital). The code signals split every file name of a query's window.
func wordsASCII(s string) []string {
	var out []string
	start := -1 // of the current word; -1 between words
	for i := 0; i < len(s); i++ {
		if !isAlnumASCII(s[i]) {
			if start >= 0 {
				out = append(out, strings.ToLower(s[start:i]))
				start = -1
			}
			continue
		}
		if start >= 0 && boundaryASCII(s, i) {
			out = append(out, strings.ToLower(s[start:i]))
			start = i
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, strings.ToLower(s[start:]))
	}
	return out
}

func isAlnumASCII(c byte) bool { return isLowerASCII(c) || isUpperASCII(c) || isDigitASCII(c) }
func isLowerASCII(c byte) bool { return 'a' <= c && c <= 'z' }
func isUpperASCII(c byte) bool { return 'A' <= c && c <= 'Z' }
func isDigitASCII(c byte) bool { return '0' <= c && c <= '9' }

// boundaryASCII is boundary over the bytes of an ASCII s.
func boundaryASCII(s string, i int) bool {
	p, r := s[i-1], s[i]
	switch {
	case isUpperASCII(r) && (isLowerASCII(p) || isDigitASCII(p)):
		return true
	case isUpperASCII(r) && isUpperASCII(p) && i+1 < len(s) && isLowerASCII(s[i+1]):
		return true
	case isDigitASCII(r) != isDigitASCII(p):
		return true
	}
	return false
}

// wordsRunes is Words of any s, split rune by rune.
func wordsRunes(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if i > 0 && len(cur) > 0 && boundary(rs, i) {
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

// boundary reports a word boundary before rs[i] (both letters or digits).
func boundary(rs []rune, i int) bool {
	p, r := rs[i-1], rs[i]
	switch {
	case unicode.IsUpper(r) && (unicode.IsLower(p) || unicode.IsDigit(p)):
		return true
	case unicode.IsUpper(r) && unicode.IsUpper(p) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
		return true
	case unicode.IsDigit(r) != unicode.IsDigit(p):
		return true
	}
	return false
}

// NamedTypes are the words of a question in words that are capitalized
// like a type's name (Applicative, Job, Mutex: a capital, then lower-case
// letters only, three letters or more), stop words (which stem to "")
// left out. The question may name a type this way without the spelling
// that makes a token code-like (CodeLike), so the chunk that defines one
// is preferred too, less than for an identifier (NamedCredit).
func NamedTypes(text string, stem func(string) string) []string {
	var out []string
	for _, f := range strings.Fields(text) {
		f = strings.Trim(f, "`'\",;:.?!()[]{}<>")
		rs := []rune(f)
		if len(rs) < 3 || !unicode.IsUpper(rs[0]) || CodeLike(f) || stemWord(strings.ToLower(f), stem) == "" {
			continue
		}
		lower := true
		for _, r := range rs[1:] {
			lower = lower && unicode.IsLower(r)
		}
		if lower {
			out = append(out, f)
		}
	}
	return out
}

// NamedCredit is what defining a word of NamedTypes counts in the
// definition match (defining an identifier counts 1), chosen on
// codesearch-dev (docs/QUALITY.md).
const NamedCredit = 0.5
