package backend

import (
	"strings"

	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/engine/record"
	"github.com/autorag/autorag/mirror"
)

//semguard:begin chunk-record

// Chunk is one chunk as the backends store it.
type Chunk struct {
	Path      string
	Ord       int
	Title     string
	Section   string
	StartLine int
	EndLine   int
	Text      string
	Page      int        // 1-based page of a PDF chunk; 0 otherwise
	Attach    string     // file name of the e-mail attachment the chunk is from; "" otherwise
	Facets    []string   // filter terms of the file, on its first chunk only; of the entry, on every chunk of an e-mail file
	Lang      string     // analysis language (analyze.Languages); "" = English, no lang field
	Kind      string     // the chunker kind of its part (chunk.KindCode, ...); not stored
	Defs      []ChunkDef // code: the definitions named on its lines (name, kind, line in the file)
	Tokens    int        // analyzed body length, set by Writer.Apply
	FileIdx   int        // index of the file's record in the refresh's builder; not stored
}

// ChunkDef is a definition a chunk holds; a result carries the same
// record (rank.Def).
type ChunkDef = rank.Def

// Body is what a chunk is searched by: its title, section and text. BM25
// indexes it and the embedder turns it into the chunk's vector.
func (c *Chunk) Body() string { return c.Title + "\n" + c.Section + "\n" + c.Text }

// MetaSep separates the fields of a chunk's stored metadata in the local
// backend; no label holds it (the engine replaces it when it makes one).
const MetaSep = "\x1f"

// DefSep separates a chunk's definitions where a backend stores them in
// one value (each definition's fields separated by MetaSep); no stored
// definition name holds either.
const DefSep = "\x1e"

//semguard:end chunk-record

// CodeFiles returns a function reporting whether a chunk (by ID) comes
// from a file parsed as code, remembering each path's answer: for one
// query's ranking (rank.Query.IsCode; not safe for concurrent use, like
// its Stemmer), whose fusion and code signals ask it of every chunk of
// the lists, many of them of one file, and naming a file's parser builds
// strings.
func CodeFiles() func(id string) bool {
	memo := map[string]bool{}
	return func(id string) bool {
		path := record.ChunkPath(id)
		code, ok := memo[path]
		if !ok {
			parser, known := mirror.ParserFor(path)
			code = known && strings.HasPrefix(parser, "code@")
			memo[path] = code
		}
		return code
	}
}

// MayAttach reports a path whose chunks may come from attachments (an
// e-mail or a mailbox): entries of their own, known once a chunk is loaded.
// Filters select such a file's chunks one by one.
func MayAttach(path string) bool {
	parser, _ := mirror.ParserFor(path)
	return mirror.DocType(parser) == mirror.TypeEmail
}
