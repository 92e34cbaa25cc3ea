package embedding

// FlushCounts makes the new embeddings durable before a commit and returns
// what the build embedded, took from the cache, missed and cut into
// pieces; a nil builder (no embedder) did nothing.
func (v *Builder) FlushCounts() (embedded, hits, misses, splits int, err error) {
	if v == nil {
		return 0, 0, 0, 0, nil
	}
	embedded, hits, misses, splits = v.Embedded, v.Hits, v.Misses, v.Watch.Splits()
	return embedded, hits, misses, splits, v.Flush()
}
