package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/autorag/autorag/engine/split"
	"github.com/autorag/autorag/mirror"
)

// Query filters on metadata. Every file's first chunk carries its filter
// terms (Chunk.Facets, indexed by each backend): "type=<doc|code|pdf|office|email|html>", "lang=...",
// "title=...", one "key=value" per metadata field (frontmatter scalars,
// document properties, e-mail headers) and "tag=..." per tag, lowercased.
// A query with filters reads the postings of its terms to find the files
// that have all of them, and both lists keep only those files' chunks.
//
// E-mail files are the exception: an attachment is an entry of its own
// with its own type and fields, so every chunk of an e-mail file carries
// the terms of its entry (the message's, or its attachment's), and filters
// select those chunks rather than the file.

// Types are the values --type accepts.
var Types = mirror.Types

// filterTerms validates o.Filters and o.Type and returns the terms a file
// must have, sorted and without repeats.
func filterTerms(o QueryOptions) ([]string, error) {
	var terms []string
	for _, f := range o.Filters {
		k, v, ok := strings.Cut(f, "=")
		if !ok || strings.TrimSpace(k) == "" || strings.TrimSpace(v) == "" {
			return nil, fmt.Errorf("%w: --filter %q: want key=value", ErrBadQuery, f)
		}
		terms = append(terms, split.FilterTerm(k, v))
	}
	if o.Type != "" {
		if !slices.Contains(Types, o.Type) {
			return nil, fmt.Errorf("%w: --type %q: want one of %s", ErrBadQuery, o.Type, strings.Join(Types, ", "))
		}
		terms = append(terms, split.FilterTerm("type", o.Type))
	}
	slices.Sort(terms)
	return slices.Compact(terms), nil
}

// CheckFilters reports filters or a type that a query would reject.
func CheckFilters(o QueryOptions) error {
	_, err := filterTerms(o)
	return err
}

// filterKey is the filter part of a cached answer's key: the terms, which
// equal filters share whatever their spelling.
func filterKey(o QueryOptions) string {
	terms, err := filterTerms(o)
	if err != nil {
		return "invalid"
	}
	return "filters=" + strings.Join(terms, "\x00")
}

// ErrBadQuery reports query options that cannot be answered (a usage error).
var ErrBadQuery = fmt.Errorf("bad query")
