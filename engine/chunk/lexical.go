package chunk

import (
	"strings"

	"github.com/autorag/autorag/engine/codedef"
)

// kindOfWord maps the keyword that introduces a definition to its kind;
// "" for a word that introduces none.
func kindOfWord(w string) string {
	switch w {
	case "def", "defp", "fn", "func", "fun", "function", "sub", "proc", "const", "let", "var":
		return codedef.KindFunction
	case "class", "struct", "union", "enum", "interface", "trait", "record", "object", "protocol", "typedef":
		return codedef.KindClass
	case "module", "defmodule", "namespace", "mod", "package":
		return codedef.KindNamespace
	case "type":
		return codedef.KindType
	case "impl", "extension":
		return codedef.KindImpl
	case "macro", "macro_rules!", "defmacro":
		return codedef.KindMacro
	}
	return ""
}

// defFromLabel reads the name and kind of a definition from the label a
// language rule gave it: "def get", "class Store", "impl Display for
// Store" (named by its type), "fn parse"; a label that does not start
// with a keyword is a signature ("public Doc get", "static int
// parse_header") named by its last word, a function or, inside a
// container, a method. A JavaScript "const f = () =>" rule labels its
// function "const f".
func defFromLabel(label string, inContainer bool) (name, kind string) {
	f := strings.Fields(label)
	if len(f) == 0 {
		return "", ""
	}
	kind = kindOfWord(f[0])
	switch {
	case kind == codedef.KindImpl:
		name = f[len(f)-1]
	case kind != "" && len(f) > 1:
		name = f[1]
	default:
		kind, name = codedef.KindFunction, f[len(f)-1]
	}
	if kind == codedef.KindFunction && inContainer {
		kind = codedef.KindMethod
	}
	return identifier(name), kind
}

// identifier trims a name to its last identifier: "*parse" is "parse",
// "Foo::bar" is "bar", "Vec<T>" is "Vec", "~Foo" is "Foo", a Kotlin
// extension "String.words" is "words".
func identifier(s string) string {
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	if i := strings.IndexAny(s, "<([{:;,="); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimFunc(s, func(r rune) bool { return r < 0x80 && !isIdentByte(byte(r)) })
}

// lexicalKeywords introduce a definition in languages with no rules of
// their own (and in Go that does not parse), after any lexicalModifiers.
var lexicalKeywords = map[string]bool{
	"def": true, "defp": true, "defmodule": true, "defmacro": true, "class": true, "fn": true, "func": true,
	"fun": true, "function": true, "sub": true, "proc": true, "module": true, "struct": true, "interface": true,
	"trait": true, "enum": true, "protocol": true, "extension": true, "object": true, "record": true,
	"namespace": true, "impl": true, "type": true, "macro": true,
}

var lexicalModifiers = map[string]bool{
	"export": true, "pub": true, "public": true, "private": true, "protected": true, "internal": true,
	"static": true, "async": true, "local": true, "abstract": true, "final": true, "inline": true,
	"default": true, "open": true, "override": true, "sealed": true, "data": true, "suspend": true, "unsafe": true,
}

// lexicalDefs lists the definitions lexicalDef finds, one per line at
// most.
func lexicalDefs(l *lines) []lineDef {
	var out []lineDef
	for i := 0; i < l.count(); i++ {
		if l.blank[i] {
			continue
		}
		if d, ok := lexicalDef(strings.TrimSpace(l.line(i))); ok {
			d.line = i
			out = append(out, d)
		}
	}
	return out
}

// lexicalDef reads a definition from a line: a keyword that introduces
// one (lexicalKeywords), after modifiers, then its name ("function
// M.setup" is "setup", "defmodule Phoenix.Router" is "Router"); a Go
// method's receiver is skipped ("func (s *Store) Get"); a shell function
// "name() {".
func lexicalDef(line string) (lineDef, bool) {
	word, rest := cutWord(line)
	for lexicalModifiers[word] {
		word, rest = cutWord(rest)
	}
	if !lexicalKeywords[word] {
		name := shellFunction(line)
		return lineDef{name: name, kind: codedef.KindFunction}, name != ""
	}
	kind := kindOfWord(word)
	if word == "func" && strings.HasPrefix(rest, "(") {
		i := strings.IndexByte(rest, ')')
		if i < 0 {
			return lineDef{}, false
		}
		rest, kind = strings.TrimLeft(rest[i+1:], " \t"), codedef.KindMethod
	}
	name := leadingName(rest)
	if i := strings.LastIndexAny(name, ".:"); i >= 0 {
		name = name[i+1:]
	}
	return lineDef{name: name, kind: kind}, name != ""
}

// shellFunction is the name of a shell function line "name() {" (or
// "name ()"), else "".
func shellFunction(line string) string {
	i := strings.Index(line, "()")
	if i <= 0 {
		return ""
	}
	if rest := strings.TrimSpace(line[i+2:]); rest != "" && rest != "{" {
		return ""
	}
	name := strings.TrimRight(line[:i], " \t")
	for k := 0; k < len(name); k++ {
		c := name[k]
		if c >= 0x80 || c == '$' || !isIdentByte(c) && (c != '-' || k == 0) || k == 0 && c >= '0' && c <= '9' {
			return ""
		}
	}
	return name
}

// cutWord splits s at its first run of spaces or tabs. The rest is
// empty when no white space follows the word: a keyword must be followed
// by its name.
func cutWord(s string) (word, rest string) {
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimLeft(s[i:], " \t")
}

// leadingName is the dotted identifier s starts with ("M.setup",
// "Phoenix.Router"); "" when s does not start with an identifier.
func leadingName(s string) string {
	if s == "" || s[0] >= '0' && s[0] <= '9' || !isIdentByte(s[0]) || s[0] >= 0x80 {
		return ""
	}
	n := 0
	for n < len(s) && (isIdentByte(s[n]) && s[n] < 0x80 || (s[n] == '.' || s[n] == ':') && n+1 < len(s) && isIdentByte(s[n+1]) && s[n+1] < 0x80) {
		n++
	}
	return s[:n]
}
