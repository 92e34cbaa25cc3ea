package main

import (
	"os"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/embed/openai"
	"github.com/autorag/autorag/engine/embed/static"
)

// newEmbedder builds the configured embedder; "none" builds a BM25-only
// index.
func newEmbedder(name string) (embed.Embedder, error) {
	switch name {
	case "local", "":
		return static.New(), nil
	case "none":
		return nil, nil
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
	return nil, usagef("unknown embedder %q: set --embedder, AUTORAG_EMBEDDER or embedder in .autorag/config.toml to local, openai or none", name)
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
