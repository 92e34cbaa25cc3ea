package rank

// Query is what ranking needs to know beyond the lists that only the
// query's analysis and the mirror know: the engine fills it (rank must not
// import them). A nil function answers false.
type Query struct {
	// Text is the query as the user typed it (the code signals read it:
	// QueryKind, Identifiers, QueryTerms).
	Text string
	// Stem is the index's analysis of one word: its stem, or "" for a
	// stop word (path matching compares stems).
	Stem func(word string) string
	// Foreign: the query is in another language than English
	// (analyze.DetectQuery).
	Foreign bool
	// Script is the script of most of the query's words (ScriptOf).
	Script Script
	// IsCode reports a chunk (by ID) of a file parsed as code.
	IsCode func(id string) bool
	// MayAttach reports a path whose chunks may come from attachments (an
	// e-mail or a mailbox): entries of their own for the per-file limit.
	MayAttach func(path string) bool
}

func (q Query) isCode(id string) bool { return q.IsCode != nil && q.IsCode(id) }

func (q Query) mayAttach(path string) bool { return q.MayAttach != nil && q.MayAttach(path) }
