package chunk

import "fmt"

// Version is the chunker's version. Bump it whenever Split may return
// different chunks for the same input and options; it is part of
// Options.String and therefore of the index fingerprint.
const Version = 3

// Default chunk settings.
const (
	DefaultSize    = 2400 // runes
	DefaultOverlap = 240  // runes
)

// Options are the chunker settings.
type Options struct {
	Size    int // target maximum chunk size in characters (runes); default DefaultSize
	Overlap int // characters repeated from the end of the previous piece when a block larger than Size is cut; default DefaultOverlap
	// Syntax cuts code along the definitions a syntax parser finds (tree-sitter, through
	// split.Options.Defs) rather than by the per-language line rules; Go is cut along
	// go/parser's either way. Off by default: parsing costs several times a first refresh.
	Syntax bool
}

//semguard:begin chunk-options

// Normalize returns the options with defaults filled in and out-of-range
// values repaired. The rules, applied in order:
//
//   - Size <= 0 means DefaultSize; if Overlap is also 0 it means
//     DefaultOverlap, so the zero Options is the default configuration. (With
//     an explicit Size, Overlap 0 means no overlap.)
//   - Overlap < 0 becomes 0.
//   - Overlap >= Size becomes Size/4 (such an overlap could never advance).
//   - Overlap > Size/2 becomes Size/2, so every cut advances by at least half
//     a piece and the output of a cut block stays within about twice its
//     size.
//
// Normalize is idempotent.
func (o Options) Normalize() Options {
	if o.Size <= 0 {
		o.Size = DefaultSize
		if o.Overlap == 0 {
			o.Overlap = DefaultOverlap
		}
	}
	if o.Overlap < 0 {
		o.Overlap = 0
	}
	if o.Overlap >= o.Size {
		o.Overlap = o.Size / 4
	}
	if o.Overlap > o.Size/2 {
		o.Overlap = o.Size / 2
	}
	return o
}

// String returns the canonical form of the normalized options, such as
// "chunk@1 size=2400 overlap=240". Options that chunk alike print alike; the
// string goes into the index fingerprint.
func (o Options) String() string {
	n := o.Normalize()
	s := fmt.Sprintf("chunk@%d size=%d overlap=%d", Version, n.Size, n.Overlap)
	if o.Syntax {
		s += " syntax=tree-sitter"
	}
	return s
}

//semguard:end chunk-options
