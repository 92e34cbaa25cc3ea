package main

import (
	"os"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/embed/openai"
	"github.com/autorag/autorag/engine/embed/static"
	"github.com/autorag/autorag/engine/rerank"
)

// newEmbedder builds the configured embedder; "none" builds a BM25-only
// index. model names the transformer embedder's model.
func newEmbedder(name, model string) (embed.Embedder, error) {
	if model != "" && name != "transformer" {
		return nil, usagef("model %q is set but the embedder is %q: the model applies to the transformer embedder only (set embedder to transformer, or unset model)", model, name)
	}
	switch name {
	case "local", "":
		return static.New(), nil
	case "none":
		return nil, nil
	case "transformer":
		return newTransformer(model)
	case "openai":
		cfg, err := openai.ConfigFromEnv(os.Getenv)
		if err != nil {
			return nil, &usageError{err: err}
		}
		e, err := openai.New(cfg)
		if err != nil {
			return nil, &usageError{err: err}
		}
		return e, nil
	}
	return nil, usagef("unknown embedder %q: set --embedder, AUTORAG_EMBEDDER or embedder in .autorag/config.toml to local, transformer, openai or none", name)
}

// fusionFrom applies the fusion and fusion_alpha settings over the
// embedder's default (engine.FusionFrom).
func fusionFrom(d draft, emb embed.Embedder) (engine.Fusion, error) {
	f, err := engine.FusionFrom(d.fusion, d.alpha, emb)
	if err != nil {
		return f, &usageError{err: err}
	}
	return f, nil
}

// newReranker builds the reranker the rerank setting asks for: nil when
// off, the client of AUTORAG_RERANK_URL when on or required (a failing
// reranker then fails the query instead of leaving the fused order).
func newReranker(setting string) (engine.Reranker, error) {
	switch setting {
	case "", "off":
		return nil, nil
	case "on", "required":
	default:
		return nil, usagef("rerank %q: want on, required or off", setting)
	}
	cfg, ok, err := rerank.ConfigFromEnv(os.Getenv)
	if !ok {
		return nil, usagef("rerank is on but AUTORAG_RERANK_URL is not set: give the rerank endpoint (e.g. http://127.0.0.1:8080/rerank for text-embeddings-inference, https://api.cohere.com/v2/rerank)")
	}
	if err != nil {
		return nil, &usageError{err: err}
	}
	c, err := rerank.New(cfg)
	if err != nil {
		return nil, &usageError{err: err}
	}
	return c, nil
}
