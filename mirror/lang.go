package mirror

import (
	"path"
	"strings"
)

// kind is what the file name says about a source: which parser reads it and
// in which language.
type kind struct {
	parser string // name@version
	lang   string
}

// ParserFor returns the parser name@version that Parse would use for path,
// and ok=false for well-known binary extensions (images, archives, objects,
// media, fonts, legacy office formats), which Scan skips without reading.
// Any other unknown extension is plain text: binary content is rejected by
// Parse on its bytes, not by its name.
func ParserFor(path string) (parser string, ok bool) {
	k, ok := classify(path)
	return k.parser, ok
}

// classify maps a file name to its kind.
func classify(p string) (kind, bool) {
	base := path.Base(strings.ReplaceAll(p, "\\", "/"))
	if lang := langByName(base); lang != "" {
		return kind{codeParserOf(base), lang}, true
	}
	ext := ""
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		ext = strings.ToLower(base[i+1:])
	}
	if isBinaryExt(ext) {
		return kind{}, false
	}
	if ext == "md" || ext == "markdown" || ext == "mdx" {
		return kind{markdownParser, "markdown"}, true
	}
	if f, ok := formatByExt[ext]; ok {
		return kind{f.parser.Name(), f.lang}, true
	}
	if lang := langByExt(ext); lang != "" {
		return kind{codeParserOf(base), lang}, true
	}
	return kind{textParser, "text"}, true
}

// langByName recognizes code files by their whole name.
func langByName(base string) string {
	switch base {
	case "Makefile", "makefile", "GNUmakefile":
		return "make"
	case "Dockerfile", "Containerfile":
		return "dockerfile"
	case "CMakeLists.txt":
		return "cmake"
	case "Jenkinsfile":
		return "groovy"
	case "Rakefile", "Gemfile":
		return "ruby"
	}
	return ""
}

// langByExt recognizes code files by their lowercased extension.
func langByExt(ext string) string {
	switch ext {
	case "go":
		return "go"
	case "py", "pyi", "pyw":
		return "python"
	case "js", "mjs", "cjs", "jsx":
		return "javascript"
	case "ts", "tsx", "mts", "cts":
		return "typescript"
	case "rs":
		return "rust"
	case "c", "h":
		return "c"
	case "cc", "cpp", "cxx", "c++", "hpp", "hh", "hxx", "h++", "ipp":
		return "cpp"
	case "java":
		return "java"
	case "kt", "kts":
		return "kotlin"
	case "scala", "sc":
		return "scala"
	case "swift":
		return "swift"
	case "cs":
		return "csharp"
	case "rb", "rake", "gemspec":
		return "ruby"
	case "php":
		return "php"
	case "pl", "pm":
		return "perl"
	case "lua":
		return "lua"
	case "sh", "bash", "zsh", "ksh", "fish":
		return "shell"
	case "ps1", "psm1":
		return "powershell"
	case "sql":
		return "sql"
	case "yaml", "yml":
		return "yaml"
	case "json", "jsonc", "json5":
		return "json"
	case "toml":
		return "toml"
	}
	return langByExtMore(ext)
}

// langByExtMore continues langByExt (split to keep each switch readable).
func langByExtMore(ext string) string {
	switch ext {
	case "xml", "xsd", "xsl":
		return "xml"
	case "css", "scss", "sass", "less":
		return "css"
	case "vue":
		return "vue"
	case "svelte":
		return "svelte"
	case "proto":
		return "protobuf"
	case "graphql", "gql":
		return "graphql"
	case "tf", "hcl":
		return "hcl"
	case "ex", "exs":
		return "elixir"
	case "erl", "hrl":
		return "erlang"
	case "hs":
		return "haskell"
	case "ml", "mli":
		return "ocaml"
	case "clj", "cljs", "cljc", "edn":
		return "clojure"
	case "dart":
		return "dart"
	case "zig":
		return "zig"
	case "r":
		return "r"
	case "jl":
		return "julia"
	case "groovy", "gradle":
		return "groovy"
	case "mk":
		return "make"
	case "cmake":
		return "cmake"
	case "el":
		return "elisp"
	case "vim":
		return "vim"
	case "sol":
		return "solidity"
	case "nim":
		return "nim"
	}
	return ""
}

// isBinaryExt reports extensions whose files are binary in practice, in a
// format no parser here reads (legacy and OpenDocument office files), or
// drawings: an SVG's markup is path data and styles, not text a question
// is answered by (FastAPI's 56 SVG files made 3,159 chunks, 18 % of its
// index and of its embedding time).
func isBinaryExt(ext string) bool {
	switch ext {
	case "png", "jpg", "jpeg", "gif", "bmp", "tif", "tiff", "webp", "ico", "icns",
		"psd", "heic", "avif", "svg", "svgz", "xcf",
		"doc", "xls", "ppt", "odt", "ods", "odp", "epub",
		"zip", "gz", "tgz", "bz2", "xz", "zst", "7z", "rar", "tar", "lz4", "br", "lzma",
		"exe", "dll", "so", "dylib", "o", "a", "lib", "obj", "class", "jar", "war", "ear",
		"pyc", "pyo", "whl", "egg", "wasm", "bin", "iso", "img", "dmg", "deb", "rpm", "apk",
		"woff", "woff2", "ttf", "otf", "eot",
		"mp3", "mp4", "m4a", "m4v", "wav", "flac", "ogg", "oga", "ogv", "opus", "aac",
		"avi", "mov", "mkv", "webm", "wmv", "flv", "mid", "midi",
		"db", "sqlite", "sqlite3", "npy", "npz", "pkl", "pickle", "pt", "pth", "onnx",
		"safetensors", "gguf", "h5", "hdf5", "parquet", "arrow", "feather", "ds_store":
		return true
	}
	return false
}
