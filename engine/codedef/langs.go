package codedef

import (
	"path"
	"strconv"
	"strings"
)

// ModuleRev is the revision of the tree-sitter module's glue
// (scripts/treesitter/glue.c): bump it when a change there can change the
// definitions found. 2: the budget in steps instead of time, and sources
// up to 512 KiB instead of 2 MiB, so which files fit changed.
const ModuleRev = 2

// Language is one grammar linked into the tree-sitter module
// (engine/syntax).
type Language struct {
	Name    string // as the module and Languages name it
	Grammar string // grammar@version the module was built from
	Rules   int    // revision of its rules (engine/syntax/rules); bump on every change
	RulesOf string // the language whose rules file it reads when not its own ("typescript" for "tsx")
}

// languages in the order of Languages.
var languages = []Language{
	{Name: "python", Grammar: "tree-sitter-python@0.25.0", Rules: 1},
	{Name: "javascript", Grammar: "tree-sitter-javascript@0.25.0", Rules: 1},
	{Name: "typescript", Grammar: "tree-sitter-typescript@0.23.2", Rules: 1},
	{Name: "tsx", Grammar: "tree-sitter-typescript/tsx@0.23.2", Rules: 1, RulesOf: "typescript"},
	{Name: "java", Grammar: "tree-sitter-java@0.23.5", Rules: 1},
	{Name: "kotlin", Grammar: "tree-sitter-kotlin@1.1.0", Rules: 1},
	{Name: "c", Grammar: "tree-sitter-c@0.24.1", Rules: 1},
	{Name: "cpp", Grammar: "tree-sitter-cpp@0.23.4", Rules: 1},
	{Name: "csharp", Grammar: "tree-sitter-c-sharp@0.23.5", Rules: 1},
	{Name: "rust", Grammar: "tree-sitter-rust@0.24.2", Rules: 1},
	{Name: "ruby", Grammar: "tree-sitter-ruby@0.23.1", Rules: 1},
	{Name: "php", Grammar: "tree-sitter-php@0.24.2", Rules: 1},
	{Name: "scala", Grammar: "tree-sitter-scala@0.24.0", Rules: 1},
	{Name: "bash", Grammar: "tree-sitter-bash@0.25.1", Rules: 1},
	{Name: "lua", Grammar: "tree-sitter-lua@0.5.0", Rules: 1},
	{Name: "elixir", Grammar: "tree-sitter-elixir@0.3.5", Rules: 1},
	{Name: "go", Grammar: "tree-sitter-go@0.25.0", Rules: 1},
}

// extensions maps a lowercased file extension, or a base name without one,
// to its language. A .h header is read as C++: tree-sitter-cpp extends
// tree-sitter-c, so a C header parses alike (libuv's 17 headers: the same
// definitions, or a few more), while a C++ header (classes, namespaces,
// templates) defeats the C grammar (three of four libstdc++ headers gave
// no definitions but an error, against 18 to 146 with C++'s).
var extensions = map[string]string{
	".py": "python", ".pyi": "python", ".pyw": "python",
	".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
	".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
	".java": "java", ".kt": "kotlin", ".kts": "kotlin",
	".c": "c", ".h": "cpp",
	".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp", ".hpp": "cpp", ".hh": "cpp", ".hxx": "cpp", ".h++": "cpp", ".ipp": "cpp",
	".cs": "csharp", ".rs": "rust",
	".rb": "ruby", ".rake": "ruby", ".gemspec": "ruby", "Rakefile": "ruby", "Gemfile": "ruby",
	".php": "php", ".scala": "scala", ".sc": "scala",
	".sh": "bash", ".bash": "bash",
	".lua": "lua", ".ex": "elixir", ".exs": "elixir",
	".go": "go",
}

// Lookup returns the language of the module named name.
func Lookup(name string) (Language, bool) {
	for _, l := range languages {
		if l.Name == name {
			return l, true
		}
	}
	return Language{}, false
}

// LangOf returns the language of a file by its extension (or, for a few
// conventional names such as Rakefile, its base name), "" when no grammar
// of the module reads it. Go files map to "go", whose grammar the module
// has; Syntax sends them to go/parser instead.
func LangOf(p string) string {
	base := path.Base(strings.ReplaceAll(p, "\\", "/"))
	if l, ok := extensions[strings.ToLower(path.Ext(base))]; ok {
		return l
	}
	return extensions[base]
}

// Languages returns the names of the languages the module reads.
func Languages() []string {
	names := make([]string, len(languages))
	for i, l := range languages {
		names[i] = l.Name
	}
	return names
}

// Version returns what the module's definitions of lang depend on, for
// the index's fingerprint: the grammar and its version, the rules'
// revision and the glue's ("tree-sitter-python@0.25.0+r1m2"); "" for a
// language the module does not read.
func Version(lang string) string {
	l, ok := Lookup(lang)
	if !ok {
		return ""
	}
	return l.Grammar + "+r" + strconv.Itoa(l.Rules) + "m" + strconv.Itoa(ModuleRev)
}

// Go is the language whose definitions ParseGo finds: Go goes through
// go/parser, not the module.
const Go = "go"

// Syntax returns the parser that finds the definitions of the file at p:
// its language ("python", "tsx", "go") and its version (GoVersion for Go,
// else Version), "" and "" when none does. The mirror records both in the
// file's parser name, and the chunker cuts the file along that parser's
// definitions, so a new version re-chunks exactly its language's files.
func Syntax(p string) (lang, version string) {
	lang = LangOf(p)
	if lang == Go {
		return lang, GoVersion
	}
	if v := Version(lang); v != "" {
		return lang, v
	}
	return "", ""
}
