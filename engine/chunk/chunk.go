package chunk

// Chunk is one passage of a document.
type Chunk struct {
	Text      string // the chunk text
	StartLine int    // 1-based, inclusive, line numbers within the input text
	EndLine   int    // 1-based, inclusive
	Section   string // heading path for markdown ("Install > Linux"); for code the block's signature line; "" for plain text
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
// Go is cut at its declarations (go/parser), other languages at the
// definitions a per-language heuristic finds, and each chunk's Section
// names the declaration it starts with ("func (s *Store) Get",
// "class Store > def get"). An unknown language is cut like Split's code.
func SplitLang(kind, lang, text string, o Options) []Chunk {
	o = o.Normalize()
	l := newLines(text)
	var blocks []block
	switch kind {
	case KindMarkdown:
		blocks = markdownBlocks(l)
	case KindCode:
		blocks = langBlocks(l, lang)
	default:
		blocks = paragraphs(l)
	}
	if len(blocks) == 0 {
		return nil
	}
	p := packer{l: l, o: o, commonPath: kind == KindMarkdown}
	return p.pack(blocks)
}

//semguard:end chunk
