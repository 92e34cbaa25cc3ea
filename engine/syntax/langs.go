package syntax

import "github.com/autorag/autorag/engine/codedef"

// language is one grammar linked into the module (its table, with the
// versions the fingerprint names, is defs's).
type language struct{ codedef.Language }

// rulesFile is the name of lang's rules under rules/.
func (l language) rulesFile() string {
	if l.RulesOf != "" {
		return "rules/" + l.RulesOf + ".rules"
	}
	return "rules/" + l.Name + ".rules"
}

func lookup(name string) (language, bool) {
	l, ok := codedef.Lookup(name)
	return language{l}, ok
}

// LangOf returns the language of a file by its extension (codedef.LangOf).
func LangOf(p string) string { return codedef.LangOf(p) }

// Languages returns the names of the languages Parse reads.
func Languages() []string { return codedef.Languages() }

// Version returns what the definitions of lang depend on, for the index's
// fingerprint (codedef.Version); "" for a language Parse does not read.
func Version(lang string) string { return codedef.Version(lang) }
