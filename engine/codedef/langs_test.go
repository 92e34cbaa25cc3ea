package codedef

import "testing"

// Syntax picks the parser of a file by its name: go/parser for Go, the
// module's grammar for the others (TSX its own, a .h header C++'s), none
// for a language the module does not read; the version is the one the
// mirror's parser name carries.
func TestSyntax(t *testing.T) {
	for path, want := range map[string][2]string{
		"main.go":          {"go", GoVersion},
		"ui/App.tsx":       {"tsx", "tree-sitter-typescript/tsx@0.23.2+r1m2"},
		"api.d.ts":         {"typescript", Version("typescript")},
		"src/uv.h":         {"cpp", Version("cpp")},
		"src/uv.c":         {"c", Version("c")},
		"build.gradle.kts": {"kotlin", Version("kotlin")},
		"x.mjs":            {"javascript", Version("javascript")},
		"x.cjs":            {"javascript", Version("javascript")},
		"App.jsx":          {"javascript", Version("javascript")},
		"os.pyi":           {"python", Version("python")},
		"Rakefile":         {"ruby", Version("ruby")},
		"run.sh":           {"bash", Version("bash")},
		"q.sql":            {"", ""},
		"README.md":        {"", ""},
	} {
		lang, v := Syntax(path)
		if lang != want[0] || v != want[1] {
			t.Errorf("Syntax(%q) = %q, %q; want %q, %q", path, lang, v, want[0], want[1])
		}
		if want[0] != "" && want[0] != Go && v == "" {
			t.Errorf("Syntax(%q): no version", path)
		}
	}
}
