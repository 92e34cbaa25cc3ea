package rank

import (
	"strings"
	"unicode"
)

// SectionDefs is the lexical fallback for the names a code chunk defines:
// the identifier its section (the declaration signature the chunker
// records: "func (s *Store) Get", "class Store > def get", "type Node",
// "defmodule Phoenix.Router do") declares, from its last " > " part. A
// comment or an empty section defines nothing.
func SectionDefs(section string) []string {
	if i := strings.LastIndex(section, " > "); i >= 0 {
		section = section[i+3:]
	}
	s := strings.TrimSpace(section)
	if s == "" || strings.HasPrefix(s, "*") || strings.HasPrefix(s, "/") || strings.HasPrefix(s, "#") || strings.HasPrefix(s, "--") {
		return nil
	}
	s = dropGroups(s, '<', '>')
	if strings.HasPrefix(s, "func (") { // a Go method's receiver
		if j := strings.IndexByte(s, ')'); j > 0 {
			s = "func " + s[j+1:]
		}
	}
	if j := strings.IndexAny(s, "({=["); j >= 0 {
		s = s[:j]
	}
	for _, sep := range []string{": ", " :", " do", " extends ", " implements "} {
		if j := strings.Index(s, sep); j >= 0 {
			s = s[:j]
		}
	}
	f := strings.Fields(s)
	if len(f) == 0 {
		return nil
	}
	name := strings.Trim(f[len(f)-1], "*&;,")
	if j := strings.LastIndexAny(name, ".:#"); j >= 0 {
		name = name[j+1:]
	}
	if name == "" || declWords[strings.ToLower(name)] || !isIdentStart(name) {
		return nil
	}
	return []string{name}
}

func isIdentStart(s string) bool {
	r := []rune(s)[0]
	return unicode.IsLetter(r) || r == '_' || r == '$'
}

// dropGroups removes every balanced open…close group from s (generic
// parameters: "template<class T> class basic_json", "fun <T> Flow<T>.collect").
func dropGroups(s string, open, close byte) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == open:
			depth++
		case s[i] == close && depth > 0:
			depth--
		case depth == 0:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// DefinitionMatch is 1 when the chunk defines (defs: the names it
// defines) one of the query's identifiers (Identifiers) spelt the same,
// DefCaseless when only the case differs (the variable engine for the
// type Engine), else 0.
func DefinitionMatch(idents, defs []string) float64 {
	best := 0.0
	for _, d := range defs {
		for _, id := range idents {
			switch {
			case d == id:
				return 1
			case strings.EqualFold(d, id):
				best = DefCaseless
			}
		}
	}
	return best
}

// DefCaseless is DefinitionMatch for a name that differs from the query's
// identifier only in case.
const DefCaseless = 0.5
