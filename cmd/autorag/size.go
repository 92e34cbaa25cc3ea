package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/autorag/autorag/engine/layout"
)

// sizeText says what an index takes on disk beside its source: the
// committed generation's files (by part) per byte of indexed source, then
// all of .autorag (mirror and cache included).
func sizeText(s *layout.Size) string {
	parts := make([]string, 0, len(s.IndexParts))
	for _, name := range slices.Sorted(mapKeys(s.IndexParts)) {
		parts = append(parts, fmt.Sprintf("%s %s", name, mb(s.IndexParts[name])))
	}
	return fmt.Sprintf("index %s (%s) for %s of source, %.2f bytes per source byte; .autorag %s with the mirror %s and the cache %s, %.2f per source byte",
		mb(s.IndexBytes), strings.Join(parts, ", "), mb(s.SourceBytes), s.IndexPerSource,
		mb(s.TotalBytes), mb(s.MirrorBytes), mb(s.CacheBytes), s.TotalPerSource)
}

// sizeShort is sizeText without the parts, for the refresh summary.
func sizeShort(s *layout.Size) string {
	return fmt.Sprintf("index %s for %s of source, %.2f bytes per source byte; .autorag %s, %.2f per source byte",
		mb(s.IndexBytes), mb(s.SourceBytes), s.IndexPerSource, mb(s.TotalBytes), s.TotalPerSource)
}

// mb is n bytes in megabytes (10^6), one decimal.
func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

func mapKeys(m map[string]int64) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
