package rank

import "strings"

// Def is a definition a chunk holds, as the index stores it and a result
// carries it: the identifier, its kind ("function", "class", "method",
// ...; engine/syntax's kinds) and the 1-based line of the file that names
// it.
type Def struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	Line int    `json:"line"`
}

// DefKey is the form in which a definition's name is indexed and matched:
// lowercased, without the separators identifiers are written with ('_',
// '-', '$', '.', ':'), so TypeAdapter, type_adapter, typeAdapter and
// TYPE_ADAPTER share the key "typeadapter".
func DefKey(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	for _, r := range strings.ToLower(name) {
		switch r {
		case '_', '-', '$', '.', ':':
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// DefNames lists the names of defs, in order.
func DefNames(defs []Def) []string {
	out := make([]string, len(defs))
	for i, d := range defs {
		out[i] = d.Name
	}
	return out
}
