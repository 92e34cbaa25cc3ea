package rank

import "strings"

// DefaultTransformer is the fusion of the in-process transformer models,
// chosen on NFCorpus dev, CoSQA dev and XQuAD with bge-small-en-v1.5-q and
// all-minilm-l6-v2-q (docs/QUALITY.md, "Fusion for the transformer
// embedders"): their dense list is as good as BM25 or better (CoSQA: MiniLM
// alone 0.58, BM25 0.37), so the two weigh the same (α 0.5: NFCorpus dev
// bge 0.3529, 0.3479 at 0.6, 0.3359 at the convex 0.8 of before; RRF 1:1
// 0.3416). The models are English: a query in another language keeps a
// quarter of the dense weight (with MiniLM XQuAD tr fell below BM25 at a
// half, 0.9421 against 0.9437, and es at none or the full weight), one
// written mostly in another script none (zh, el and ru fell below BM25 at
// a half and at the full weight). TransformerFusion adapts it per model.
var DefaultTransformer = Fusion{Method: FusionAdaptive, Alpha: 0.5, Code: 1, Foreign: 0.25, LatinOnly: true}

// TransformerFusion is the default fusion of the transformer model whose
// embedder identity's model is model ("bge-small-en-v1.5-q@main+sha256:…").
func TransformerFusion(model string) Fusion {
	f := DefaultTransformer
	if !strings.Contains(model, "+prefix:") {
		// A model that embeds a query as it embeds a passage: BM25's
		// best chunks are where its query vector should point
		// (all-minilm-l6-v2-q, NFCorpus dev 0.3389 → 0.3446). With a
		// query instruction (bge) or prefix (e5) the passages' mean
		// pulled it off (bge: 0.3529 → 0.3435).
		f.Feedback = 5
	}
	name, _, _ := strings.Cut(model, "@")
	if x, ok := foreignFactor[name]; ok {
		f.Foreign = x
	}
	if strings.Contains(strings.ToLower(name), "multilingual") {
		// Trained on many languages: a German query is no weaker for
		// it (multilingual-e5-small alone beats BM25 on XQuAD de,
		// docs/QUALITY.md).
		f.Foreign, f.LatinOnly = 1, false
	}
	return f
}

// foreignFactor is the foreign factor measured for a model where it is not
// DefaultTransformer's: bge-small-en-v1.5 reads German, Spanish, Romanian,
// Turkish and Vietnamese better than MiniLM (XQuAD vector-only de 0.75
// against 0.70, tr 0.66 against 0.38), and at a half it is above BM25 on
// all five (es 0.9663, BM25 0.9653) where a quarter put es below (0.9649).
var foreignFactor = map[string]float64{"bge-small-en-v1.5-q": 0.5}
