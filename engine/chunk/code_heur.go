package chunk

import (
	"regexp"
	"strings"
	"sync"
)

// rule recognizes one kind of definition line (white space trimmed, after
// any modifiers the pattern allows) and renders its label from the match.
type rule struct {
	hint      string // a line must contain it before the pattern is tried
	re        *regexp.Regexp
	label     func(m []string) string
	container bool // a class, impl or similar whose members get its label as prefix
}

func r(hint, pattern string, container bool, label func(m []string) string) rule {
	return rule{hint: hint, re: regexp.MustCompile(pattern), label: label, container: container}
}

// before renders the match up to the opening parenthesis, white space
// collapsed: "public Doc get", "static int parse_header".
func before(m []string) string {
	return strings.Join(strings.Fields(strings.TrimSuffix(m[0], "(")), " ")
}

func kw(word string, group int) func([]string) string {
	return func(m []string) string { return word + " " + m[group] }
}

// langRules returns the definition rules by language, compiled on first
// use (most processes never chunk code).
var langRules = sync.OnceValue(func() map[string][]rule {
	jsRules := []rule{
		r("function", `^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([\w$]+)`, false, kw("function", 1)),
		r("class", `^(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([\w$]+)`, true, kw("class", 1)),
		r("e", `^(?:export\s+)?(?:declare\s+)?(interface|enum|namespace)\s+([\w$]+)`, true, func(m []string) string { return m[1] + " " + m[2] }),
		r("type", `^(?:export\s+)?type\s+([\w$]+)\s*(?:<[^>]*>)?\s*=`, false, kw("type", 1)),
		r("=", `^(?:export\s+)?(?:const|let|var)\s+([\w$]+)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[\w$]+\s*=>)`, false, kw("const", 1)),
		r("(", `^(?:(?:public|private|protected|static|async|readonly|override|get|set)\s+)*([\w$]+)\s*(?:<[^>]*>)?\([^)]*\)\s*(?::\s*[^{]+)?\{\s*$`, false, func(m []string) string { return m[1] }),
	}
	cRules := []rule{
		r("", `^(?:typedef\s+)?(struct|union|enum|class|namespace)\s+(\w+)\s*(?::[^{]*)?\{?\s*$`, true, func(m []string) string { return m[1] + " " + m[2] }),
		r("(", `^(?:template\s*<[^>]*>\s*)?[\w:*&<>,~\s]*?[\w~]+(?:::[\w~]+)*\s*\(`, false, before),
	}
	javaRules := []rule{
		r("", `^(?:@\w+\s+)*(?:(?:public|private|protected|internal|static|final|abstract|sealed|partial|data|open)\s+)*(class|interface|enum|record|struct|object|trait)\s+(\w+)`, true, func(m []string) string { return m[1] + " " + m[2] }),
		r("(", `^(?:(?:public|private|protected|internal|static|final|abstract|synchronized|native|override|virtual|async|default|suspend)\s+)*(?:fun\s+|def\s+)?[\w<>\[\],.? ]*?\b\w+\s*\(`, false, before),
	}
	return map[string][]rule{
		"python": {
			r("def", `^(?:async\s+)?def\s+(\w+)`, false, kw("def", 1)),
			r("class", `^class\s+(\w+)`, true, kw("class", 1)),
		},
		"javascript": jsRules,
		"typescript": jsRules,
		"rust": {
			r("fn", `^(?:pub(?:\([^)]*\))?\s+)?(?:default\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+(\w+)`, false, kw("fn", 1)),
			r("", `^(?:pub(?:\([^)]*\))?\s+)?(struct|enum|trait|union|mod)\s+(\w+)`, true, func(m []string) string { return m[1] + " " + m[2] }),
			r("impl", `^(?:unsafe\s+)?impl(?:\s*<[^{]*?>)?\s+([^{]+?)\s*(?:where\b.*)?\{?\s*$`, true, kw("impl", 1)),
			r("macro_rules!", `^macro_rules!\s*(\w+)`, false, kw("macro_rules!", 1)),
		},
		"java": javaRules, "kotlin": javaRules, "csharp": javaRules, "scala": javaRules,
		"c": cRules, "cpp": cRules,
	}
})

// notDefinitions matches lines that look like calls or control flow.
var notDefinitions = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:if|for|while|switch|return|else|catch|do|try|new|throw|case|sizeof|elif|except|with|await|yield|print|assert|delete|typeof)\b`)
})

// heuristicBlocks cuts code at definitions: a run of lines after a blank
// line (or at the start) opens a block when its first line that is not a
// comment, attribute or decorator is a definition one of rules matches, or
// when it starts at column 0 (as codeBlocks does). The block's label is its
// definition's, prefixed by the enclosing container found by indentation
// ("class Store > def get"); without a definition it is codeBlocks' label.
func heuristicBlocks(l *lines, rules []rule) ([]block, []lineDef) {
	labels, defs := definitionLabels(l, rules)
	var out []block
	for i := 0; i < l.count(); i++ {
		if l.blank[i] {
			continue
		}
		if len(out) > 0 && !(l.blank[i-1] && opensBlock(l, i, labels)) {
			out[len(out)-1].end = i
			continue
		}
		out = append(out, block{start: i, end: i})
	}
	for k := range out {
		b := &out[k]
		for j := b.start; j <= b.end; j++ {
			if labels[j] != "" {
				b.sig, b.decl = cleanSignature(labels[j]), true
				break
			}
			if !l.blank[j] && !isCommentLike(strings.TrimSpace(l.line(j))) {
				break
			}
		}
		if b.sig == "" {
			b.sig = signature(l, *b)
		}
	}
	return out, defs
}

// opensBlock reports whether the run of lines starting at i (after a blank
// line) opens a block.
func opensBlock(l *lines, i int, labels []string) bool {
	if !startsWithSpace(l.line(i)) {
		return true
	}
	for j := i; j < l.count() && !l.blank[j]; j++ {
		if labels[j] != "" {
			return true
		}
		if !isCommentLike(strings.TrimSpace(l.line(j))) {
			return false
		}
	}
	return false
}

// definitionLabels labels every definition line with its full name, its
// containers (tracked by indentation) first, and lists the definitions
// (defFromLabel: a function inside a container is a method).
func definitionLabels(l *lines, rules []rule) ([]string, []lineDef) {
	type open struct {
		indent int
		label  string
	}
	var stack []open
	var defs []lineDef
	labels := make([]string, l.count())
	for i := range labels {
		if l.blank[i] {
			continue
		}
		line := l.line(i)
		ind, trimmed := indentOf(line), strings.TrimSpace(line)
		label, container := definition(trimmed, rules)
		if label == "" {
			if ind == 0 && !isCommentLike(trimmed) {
				stack = stack[:0] // back at the top level: containers closed
			}
			continue
		}
		for len(stack) > 0 && stack[len(stack)-1].indent >= ind {
			stack = stack[:len(stack)-1]
		}
		if name, kind := defFromLabel(label, len(stack) > 0); name != "" {
			defs = append(defs, lineDef{line: i, name: name, kind: kind})
		}
		if len(stack) > 0 {
			label = stack[len(stack)-1].label + " > " + label
		}
		if container {
			stack = append(stack, open{ind, label})
		}
		labels[i] = label
	}
	return labels, defs
}

// definition returns the label of a definition line, and whether it opens
// a container.
func definition(line string, rules []rule) (string, bool) {
	if line == "" || notDefinitions().MatchString(line) || strings.HasSuffix(line, ";") {
		return "", false
	}
	for _, ru := range rules {
		if ru.hint != "" && !strings.Contains(line, ru.hint) {
			continue
		}
		if m := ru.re.FindStringSubmatch(line); m != nil {
			return ru.label(m), ru.container
		}
	}
	return "", false
}

// indentOf counts leading white space (a tab counts 4).
func indentOf(s string) int {
	n := 0
	for _, c := range s {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}
