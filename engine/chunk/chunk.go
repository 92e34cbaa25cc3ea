package chunk

import "github.com/autorag/autorag/engine/codedef"

// Chunk is one passage of a document.
type Chunk struct {
	Text      string // the chunk text
	StartLine int    // 1-based, inclusive, line numbers within the input text
	EndLine   int    // 1-based, inclusive
	Section   string // heading path for markdown ("Install > Linux"); for code the block's signature line; "" for plain text
	Defs      []Def  // code: the definitions named on its lines, in line order
}

// Kinds of input Split understands.
const (
	KindMarkdown = "markdown"
	KindCode     = "code"
	KindText     = "text"
)

//semguard:begin chunk

// Split cuts text into chunks. kind is "markdown", "code" or "text"; any other
// kind is treated as "text". It returns nil when text has no non-blank line.
//
// Every chunk holds at most o.Size runes (after Normalize) and is either the
// exact text of its lines StartLine..EndLine joined by "\n", or, when a single
// line is longer than the size, a piece of that one line (StartLine ==
// EndLine). Chunks are in document order and together cover every non-blank
// line. Text of a chunk is a substring of text.
func Split(kind, text string, o Options) []Chunk { return SplitLang(kind, "", text, o) }

// SplitLang is Split for code in a known language ("go", "python", ...):
// SplitDefs with no parser's definitions.
func SplitLang(kind, lang, text string, o Options) []Chunk {
	return SplitDefs(kind, lang, text, nil, o)
}

// SplitDefs is Split for code in language lang whose definitions a syntax
// parser found (defs; nil when none ran or it failed): code is cut along
// them. A chunk starts at a definition (its doc comment and decorators
// included) and holds it whole when it fits the size; one too large is cut
// at its members (its children), small neighbours are packed together.
// Without defs, Go is parsed here (codedef.ParseGo) and other languages are
// cut at the definitions a per-language heuristic finds. Each chunk's
// Section names the definition it starts with ("func (s *Store) Get",
// "class Store > def get") and its Defs list the definitions named on its
// lines. An unknown language is cut like Split's code, its definitions
// found lexically ("def x", "function x", "fn x", ...).
func SplitDefs(kind, lang, text string, defs []codedef.Def, o Options) []Chunk {
	o = o.Normalize()
	l := newLines(text)
	var blocks []block
	var found []lineDef
	switch kind {
	case KindMarkdown:
		blocks = markdownBlocks(l)
	case KindCode:
		blocks, found = langBlocks(l, lang, defs)
	default:
		blocks = paragraphs(l)
	}
	if len(blocks) == 0 {
		return nil
	}
	p := packer{l: l, o: o, commonPath: kind == KindMarkdown}
	chunks := p.pack(blocks)
	attachDefs(chunks, found)
	return chunks
}

//semguard:end chunk
