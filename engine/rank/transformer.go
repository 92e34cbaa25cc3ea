package rank

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

// ModelTraits are the facts about a transformer model that its default
// fusion depends on, as the model catalog (models/catalog.go) records them.
// They mirror embed.Traits, which carries them in the embedder's identity
// (the engine converts one to the other: the fields must stay the same).
type ModelTraits struct {
	// Prefixed: queries or passages get a prefix or instruction, so a
	// query is embedded unlike a passage.
	Prefixed bool
	// Multilingual: trained on many languages and scripts.
	Multilingual bool
	// Foreign is the dense weight factor measured for a query in another
	// language than English of an English model; 0: DefaultTransformer's.
	Foreign float64
	// Code is the dense weight factor measured for code chunks under a
	// question in words (Fusion.Code); 0: DefaultTransformer's.
	Code float64
}

// TransformerFusion is the default fusion of the transformer model with
// traits t, never of its name: renaming a model does not change how its
// queries rank.
func TransformerFusion(t ModelTraits) Fusion {
	f := DefaultTransformer
	if !t.Prefixed {
		// A model that embeds a query as it embeds a passage: BM25's
		// best chunks are where its query vector should point
		// (all-minilm-l6-v2-q, NFCorpus dev 0.3389 → 0.3446). With a
		// query instruction (bge) or prefix (e5) the passages' mean
		// pulled it off (bge: 0.3529 → 0.3435).
		f.Feedback = 5
	}
	if t.Foreign > 0 {
		f.Foreign = t.Foreign
	}
	if t.Code > 0 {
		f.Code = t.Code
	}
	if t.Multilingual {
		// Trained on many languages: a German query is no weaker for
		// it (the catalog entry says what was measured).
		f.Foreign, f.LatinOnly = 1, false
	}
	return f
}
