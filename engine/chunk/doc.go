// Package chunk cuts a document's text into passages for retrieval.
//
// A good passage is a unit a reader would quote: a section of a manual, a
// function with its comment, a few paragraphs on one topic. Split therefore
// works on blocks that it never breaks while they fit, and packs consecutive
// blocks greedily up to Options.Size runes:
//
//   - markdown: ATX headings ("#" to "######"; "#" lines inside ``` or ~~~
//     fences are code, not headings), fenced code blocks (one block, blank
//     lines included), and paragraphs (runs of non-blank lines, so a table or
//     a tight list is one block). Setext headings (underlined with === or
//     ---) are not recognised; they stay part of their paragraph.
//   - code: top-level blocks. A non-blank line at column 0 right after a
//     blank line starts a block, so a function keeps its doc comment and the
//     blank lines inside its body. With a known language (SplitLang,
//     SplitDefs) code is cut along its definitions (engine/codedef.Def):
//     those a syntax parser found (SplitDefs), or for Go those go/parser
//     finds (codedef.ParseGo: functions, methods, types, constants,
//     variables, each with its doc comment). Each definition is a block,
//     and the lines between definitions are cut by the generic rule. A
//     definition that fits the size is never cut; one that does not is
//     replaced by its members (its children, the header before the first
//     and the lines between them), packed the same way, recursively; a
//     definition with no members is cut as any oversized block. Without a
//     parser's definitions (none for the language, or the source does not
//     parse), Python, JavaScript/TypeScript, Rust, Java, Kotlin, C#,
//     Scala, C and C++ also start a block at a definition (def, class,
//     fn, impl, function, a method signature, ...) that follows a blank
//     line, at any indentation, with the comments and decorators above it.
//   - text: paragraphs.
//
// # Markdown sections
//
// A heading of level 1 or 2 always starts a new chunk: top-level sections of
// a README or a manual are separate topics, and a passage that mixes two of
// them ranks for neither. A deeper heading starts a new chunk only when its
// section (up to the next heading) does not fit in the current one, so small
// sibling subsections ("### Linux", "### macOS") merge into one passage under
// their parent, while a subsection is never split across two chunks merely
// because the previous chunk had room left. Headings are never left alone at
// the end of a chunk: they move to the chunk they introduce, and a chapter
// heading directly followed by a section heading joins it.
//
// Chunk.Section is the heading path shared by all blocks of the chunk, e.g.
// "Install > Linux" for a chunk inside one subsection, "Install" for a chunk
// that spans the "Linux" and "macOS" subsections; "" before the first
// heading. A heading with no text of its own ("# Guide" right above
// "## Install") does not widen the path: that chunk is "Guide > Install".
// For code it names the first definition in the chunk: "func (s *Store)
// Get", "type Store", "class Store > def get" (a member is prefixed by its
// containers: the parser's parents, or for the rules the containers found
// by indentation), "impl Store > fn put"; without a known definition it
// is the first block's signature: its first column-0 line that is not a
// comment, attribute or decorator, without a trailing "{",
// cut to 120 runes. Plain text has no sections.
//
// # Definitions
//
// Chunk.Defs lists, for code, the definitions named on the chunk's lines
// (name, kind, and the line that names it, past doc comments and
// decorators): the parser's, the rules' (a function inside a container is
// a method), or for other languages those found lexically ("def x",
// "class X", "fn x", "func x", "fun x", "function x", "defmodule X", a
// shell "x() {", ...). The pieces of one line longer than the size list
// that line's definitions on the first piece only.
//
// # Oversized blocks
//
// A block (with any headings leading it) larger than Size is cut into pieces
// of whole lines. A piece ends at the last line that fits, or earlier at a
// blank line when that keeps it at least half full. The next piece repeats
// the trailing whole lines of the previous one that fit within Overlap runes
// (none when the last line alone is longer). A single line longer than Size is
// cut inside the line: at white space when that keeps the piece at least half
// full, else hard at a rune boundary; the next piece starts up to Overlap runes
// earlier, at a word start when there is one. Overlap applies only to these
// cuts: chunks packed from whole blocks do not overlap.
//
// # Guarantees
//
//   - No chunk is longer than Size runes (there is no slack).
//   - A chunk's Text is exactly lines StartLine..EndLine of the input joined
//     by "\n" (starting and ending with a non-blank line), except for pieces
//     of a line longer than Size: those have StartLine == EndLine and hold a
//     substring of that line, without leading or trailing white space.
//   - No chunk is empty or white space only; together the chunks cover every
//     non-blank line; they are in document order.
//   - Split is deterministic and linear in the input (a 10 MB single line is
//     cut in one pass, each rune visited a bounded number of times).
//
// Lines are separated by "\n"; a trailing "\r" stays in the line. Sizes are in
// runes, an invalid UTF-8 byte counting as one.
//
// Options.String, which includes Version, goes into the index fingerprint:
// bump Version whenever Split may cut the same input differently.
package chunk
