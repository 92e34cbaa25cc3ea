package syntax

import (
	"path"
	"strconv"
	"strings"
)

// moduleRev is the revision of the module's glue (scripts/treesitter/glue.c):
// bump it when a change there can change the definitions found. 2: the
// budget in steps instead of time, so which files fit it changed.
const moduleRev = 2

// language is one grammar linked into the module.
type language struct {
	name    string // as the module and Languages name it
	grammar string // grammar@version the module was built from
	rules   int    // revision of its rules file; bump on every change
	file    string // rules/<file>.rules when not rules/<name>.rules
}

// languages in the order of Languages.
var languages = []language{
	{name: "python", grammar: "tree-sitter-python@0.25.0", rules: 1},
	{name: "javascript", grammar: "tree-sitter-javascript@0.25.0", rules: 1},
	{name: "typescript", grammar: "tree-sitter-typescript@0.23.2", rules: 1},
	{name: "tsx", grammar: "tree-sitter-typescript/tsx@0.23.2", rules: 1, file: "typescript"},
	{name: "java", grammar: "tree-sitter-java@0.23.5", rules: 1},
	{name: "kotlin", grammar: "tree-sitter-kotlin@1.1.0", rules: 1},
	{name: "c", grammar: "tree-sitter-c@0.24.1", rules: 1},
	{name: "cpp", grammar: "tree-sitter-cpp@0.23.4", rules: 1},
	{name: "csharp", grammar: "tree-sitter-c-sharp@0.23.5", rules: 1},
	{name: "rust", grammar: "tree-sitter-rust@0.24.2", rules: 1},
	{name: "ruby", grammar: "tree-sitter-ruby@0.23.1", rules: 1},
	{name: "php", grammar: "tree-sitter-php@0.24.2", rules: 1},
	{name: "scala", grammar: "tree-sitter-scala@0.24.0", rules: 1},
	{name: "bash", grammar: "tree-sitter-bash@0.25.1", rules: 1},
	{name: "lua", grammar: "tree-sitter-lua@0.5.0", rules: 1},
	{name: "elixir", grammar: "tree-sitter-elixir@0.3.5", rules: 1},
	{name: "go", grammar: "tree-sitter-go@0.25.0", rules: 1},
}

// rulesFile is the name of lang's rules under rules/.
func (l language) rulesFile() string {
	if l.file != "" {
		return "rules/" + l.file + ".rules"
	}
	return "rules/" + l.name + ".rules"
}

// extensions maps a lowercased file extension, or a base name without one,
// to its language.
var extensions = map[string]string{
	".py": "python", ".pyi": "python", ".pyw": "python",
	".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
	".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
	".java": "java", ".kt": "kotlin", ".kts": "kotlin",
	".c": "c", ".h": "c",
	".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp", ".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp", ".h++": "cpp", ".ipp": "cpp",
	".cs": "csharp", ".rs": "rust",
	".rb": "ruby", ".rake": "ruby", ".gemspec": "ruby", "Rakefile": "ruby", "Gemfile": "ruby",
	".php": "php", ".scala": "scala", ".sc": "scala",
	".sh": "bash", ".bash": "bash",
	".lua": "lua", ".ex": "elixir", ".exs": "elixir",
	".go": "go",
}

func lookup(name string) (language, bool) {
	for _, l := range languages {
		if l.name == name {
			return l, true
		}
	}
	return language{}, false
}

// LangOf returns the language of a file by its extension (or, for a few
// conventional names such as Rakefile, its base name), "" when no grammar
// of the module reads it. Go files map to "go" when the module has Go's
// grammar; the chunker may still prefer go/parser for them.
func LangOf(p string) string {
	base := path.Base(strings.ReplaceAll(p, "\\", "/"))
	if l, ok := extensions[strings.ToLower(path.Ext(base))]; ok {
		return l
	}
	return extensions[base]
}

// Languages returns the names of the languages Parse reads.
func Languages() []string {
	names := make([]string, len(languages))
	for i, l := range languages {
		names[i] = l.name
	}
	return names
}

// Version returns what the definitions of lang depend on, for the index's
// fingerprint: the grammar and its version, the rules' revision and the
// glue's ("tree-sitter-python@0.25.0+r1m2"); "" for a language Parse does
// not read.
func Version(lang string) string {
	l, ok := lookup(lang)
	if !ok {
		return ""
	}
	return l.grammar + "+r" + strconv.Itoa(l.rules) + "m" + strconv.Itoa(moduleRev)
}
