package chunk

import (
	"regexp"
	"strings"
	"sync"

	"github.com/autorag/autorag/engine/syntax"
)

// kindOfWord maps the keyword that introduces a definition to its kind;
// "" for a word that introduces none.
func kindOfWord(w string) string {
	switch w {
	case "def", "defp", "fn", "func", "fun", "function", "sub", "proc", "const", "let", "var":
		return syntax.KindFunction
	case "class", "struct", "union", "enum", "interface", "trait", "record", "object", "protocol", "typedef":
		return syntax.KindClass
	case "module", "defmodule", "namespace", "mod", "package":
		return syntax.KindNamespace
	case "type":
		return syntax.KindType
	case "impl", "extension":
		return syntax.KindImpl
	case "macro", "macro_rules!", "defmacro":
		return syntax.KindMacro
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
	case kind == syntax.KindImpl:
		name = f[len(f)-1]
	case kind != "" && len(f) > 1:
		name = f[1]
	default:
		kind, name = syntax.KindFunction, f[len(f)-1]
	}
	if kind == syntax.KindFunction && inContainer {
		kind = syntax.KindMethod
	}
	return identifier(name), kind
}

// identifier trims a name to its last identifier: "*parse" is "parse",
// "Foo::bar" is "bar", "Vec<T>" is "Vec", "~Foo" is "Foo".
func identifier(s string) string {
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	if i := strings.IndexAny(s, "<([{:;,="); i >= 0 {
		s = s[:i]
	}
	return strings.TrimFunc(s, func(r rune) bool { return r < 0x80 && !isIdentByte(byte(r)) })
}

// lexicalRules recognize definition lines in languages with no rules of
// their own (and in Go that does not parse): a keyword that introduces a
// definition, after modifiers, then its name; a Go method's receiver; a
// shell function "name() {".
var lexicalRules = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`^(?:(?:export|pub|public|private|protected|internal|static|async|local|abstract|final|inline|default|open|override|sealed|data|suspend|unsafe)\s+)*(def|defp|defmodule|defmacro|class|fn|func|fun|function|sub|proc|module|struct|interface|trait|enum|protocol|extension|object|record|namespace|impl|type|macro)\s+([A-Za-z_$][\w$]*(?:[.:][A-Za-z_$][\w$]*)*)`),
		regexp.MustCompile(`^func\s+\([^)]*\)\s*([A-Za-z_]\w*)`),
		regexp.MustCompile(`^([A-Za-z_][\w-]*)\s*\(\)\s*\{?\s*$`),
	}
})

// lexicalDefs lists the definitions lexicalRules find, one per line at
// most. Only the keyword and the name are read: "function M.setup" is
// "setup", "defmodule Phoenix.Router" is "Router".
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

func lexicalDef(line string) (lineDef, bool) {
	rules := lexicalRules()
	if m := rules[0].FindStringSubmatch(line); m != nil {
		name := m[2]
		if i := strings.LastIndexAny(name, ".:"); i >= 0 {
			name = name[i+1:]
		}
		return lineDef{name: name, kind: kindOfWord(m[1])}, name != ""
	}
	if m := rules[1].FindStringSubmatch(line); m != nil {
		return lineDef{name: m[1], kind: syntax.KindMethod}, true
	}
	if m := rules[2].FindStringSubmatch(line); m != nil {
		return lineDef{name: m[1], kind: syntax.KindFunction}, true
	}
	return lineDef{}, false
}
