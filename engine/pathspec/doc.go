// Package pathspec owns what `query --path` means: a set of patterns,
// each a glob (`*` and `?` within a segment, `**` across segments,
// `[...]` classes, `{a,b}` alternatives), a plain path (a file, or a
// directory standing for everything below it) or, after `!`, an
// exclusion. A path matches the set when it matches any inclusion (or
// there is none) and no exclusion.
//
// It is pure: it imports nothing of this module and does no I/O, so the
// engine and its backends can share one meaning of --path.
package pathspec
