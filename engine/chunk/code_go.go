package chunk

import "github.com/autorag/autorag/engine/codedef"

// langBlocks cuts code in language lang into blocks labelled with the
// definition they hold, and lists the definitions found. With defs (a
// syntax parser's, possibly empty) the blocks follow them (defTree); Go
// without them is parsed here (codedef.ParseGo). Otherwise, or when Go
// does not parse, a language with rules is cut by its definition
// patterns (heuristicBlocks) and any other by codeBlocks, its definitions
// found lexically (lexicalDefs).
func langBlocks(l *lines, lang string, defs []codedef.Def) ([]block, []lineDef) {
	if defs == nil && lang == "go" {
		if d, err := codedef.ParseGo([]byte(l.text)); err == nil {
			defs = d
			if defs == nil {
				defs = []codedef.Def{} // parsed, and defines nothing
			}
		}
	}
	if defs != nil {
		t := newDefTree(l, defs)
		return t.blocks(0, l.count(), t.top, ""), syntaxDefs(l, defs)
	}
	if rules, ok := langRules()[lang]; ok {
		return heuristicBlocks(l, rules)
	}
	return codeBlocks(l), lexicalDefs(l)
}
