package syntax

import (
	"embed"
	"fmt"
	"strings"
)

// ruleFiles holds the definition rules of each language, rules/<name>.rules,
// one a line: a kind (a Kind* constant), then the rule the module reads
// (scripts/treesitter/glue.c: the node type, the path to its name, the
// conditions). Lines starting with '#' are comments. The first rule of a
// node's type whose conditions hold wins, so specific rules come first.
//
//go:embed rules/*.rules
var ruleFiles embed.FS

// ruleSet is a language's rules as the module takes them, and the kind of
// each, by index.
type ruleSet struct {
	text  string
	kinds []string
}

// loadRules reads rules/<file>.rules.
func loadRules(l language) (ruleSet, error) {
	b, err := ruleFiles.ReadFile(l.rulesFile())
	if err != nil {
		return ruleSet{}, err
	}
	var rs ruleSet
	var lines []string
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kind, rule, ok := strings.Cut(line, " ")
		if !ok || !knownKind(kind) {
			return ruleSet{}, fmt.Errorf("%s:%d: no kind or unknown kind %q", l.rulesFile(), i+1, kind)
		}
		rs.kinds = append(rs.kinds, kind)
		lines = append(lines, strings.TrimSpace(rule))
	}
	rs.text = strings.Join(lines, "\n")
	return rs, nil
}
