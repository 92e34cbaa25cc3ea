package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/embed/openai"
	"github.com/autorag/autorag/engine/recorded"
)

// recordedSetting is the embedder and model settings that build the
// embedder an index recorded (engine.RecordedEmbedder): "local",
// "transformer" with the catalog model's name, "openai" with the model the
// provider was asked for, or "none".
type recordedSetting struct {
	embedder, model string
	maxTokens       int // openai: a per-input budget other than the default
}

// parseRecorded reads a recorded embedder identity,
// provider/model[+indexN]/dims; the model may hold slashes (a transformer
// model's prefixes, an API provider's model names).
func parseRecorded(id string) (recordedSetting, bool) {
	if id == "none" {
		return recordedSetting{embedder: "none"}, true
	}
	provider, rest, ok := strings.Cut(id, "/")
	i := strings.LastIndexByte(rest, '/')
	if !ok || i < 0 {
		return recordedSetting{}, false
	}
	model := rest[:i]
	if j := strings.LastIndex(model, "+index"); j >= 0 {
		model = model[:j]
	}
	switch provider {
	case "local":
		return recordedSetting{embedder: "local"}, true
	case "transformer":
		name, _, _ := strings.Cut(model, "@")
		return recordedSetting{embedder: "transformer", model: name}, true
	case openai.Provider:
		r := recordedSetting{embedder: "openai", model: model}
		if m, capText, ok := strings.Cut(model, "@max-tokens="); ok {
			n, err := strconv.Atoi(capText)
			if err != nil {
				return recordedSetting{}, false
			}
			r.model, r.maxTokens = m, n
		}
		return r, true
	}
	return recordedSetting{}, false
}

// short names an embedder for people: provider/model without the
// revision, digests and index version ("local", "transformer/bge-small-en-v1.5-q").
func shortEmbedder(id string) string {
	r, ok := parseRecorded(id)
	switch {
	case !ok:
		return id
	case r.model == "":
		return r.embedder
	}
	return r.embedder + "/" + r.model
}

// recordedEmbedders builds the embedders indexes recorded, each once per
// process: a server over many roots, or one whose index switches, loads
// a model once.
type recordedEmbedders struct {
	mu   sync.Mutex
	byID map[string]embed.Embedder
}

// source is the engine's EmbedderSource.
func (r *recordedEmbedders) source(id string) (embed.Embedder, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e, ok := r.byID[id]; ok {
		return e, nil
	}
	e, err := buildRecorded(id)
	if err != nil {
		return nil, err
	}
	if r.byID == nil {
		r.byID = map[string]embed.Embedder{}
	}
	r.byID[id] = e
	return e, nil
}

// buildRecorded builds the embedder the identity id names.
func buildRecorded(id string) (embed.Embedder, error) {
	rs, ok := parseRecorded(id)
	if !ok {
		return nil, fmt.Errorf("the index records embedder %q, which this autorag does not know", id)
	}
	if rs.embedder != "openai" {
		return newEmbedder(rs.embedder, rs.model)
	}
	// An API embedder: the provider's address and key come from the
	// environment, the model from the index.
	cfg, err := openai.ConfigFromEnv(os.Getenv)
	if err != nil {
		return nil, err
	}
	cfg.Model, cfg.MaxInputTokens = rs.model, rs.maxTokens
	if cfg.Dimensions > 0 && !strings.HasSuffix(id, "/"+strconv.Itoa(cfg.Dimensions)) {
		cfg.Dimensions = 0 // the recorded size, assumed by the engine
	}
	return openai.New(cfg)
}

var _ recorded.Source = (&recordedEmbedders{}).source
