package embedding

import "github.com/autorag/autorag/engine/backend"

// Missing appends to out the docs whose text the cache lacks, each
// distinct text once, and returns it with how many distinct texts docs
// held that seen had not met yet (it records them): what an upgrade
// counts and embeds without building a generation.
func (v *Builder) Missing(docs []*backend.Chunk, seen map[[32]byte]bool, out []*backend.Chunk) ([]*backend.Chunk, int) {
	dims := v.emb.Identity().Dims
	met := 0
	for _, d := range docs {
		h := Key(d.Body())
		if seen[h] {
			continue
		}
		seen[h] = true
		met++
		if vec, ok := v.cache.Get(h); !ok || len(vec) != dims {
			out = append(out, d)
		}
	}
	return out, met
}
