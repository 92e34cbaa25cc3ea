package eval

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/zeebo/blake3"

	"github.com/autorag/autorag/engine"
)

// DefaultWorkspace is the workspace of a set when the caller names none:
// one per set directory, extension and analyzer under
// $TMPDIR/autorag-eval-UID, kept so a second run of the same set only
// queries (Materialize rewrites only the documents whose bytes differ, and
// the index refreshes incrementally). Both directories are this user's
// alone (see PrivateDir): another user cannot plant a link in them.
func DefaultWorkspace(dir, ext, analyzer string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	key := blake3.Sum256([]byte(abs + "\x00" + ext + "\x00" + analyzer))
	base, err := PrivateDir(filepath.Join(os.TempDir(), fmt.Sprintf("autorag-eval-%d", os.Getuid())))
	if err != nil {
		return "", err
	}
	return PrivateDir(filepath.Join(base, fmt.Sprintf("%s-%x", filepath.Base(abs), key[:4])))
}

// Overrides are the settings an evaluation may change for one run; nil
// and "" leave a setting as configured.
type Overrides struct {
	Analyzer string   // the text analysis (Settings.Analyzer)
	Floor    *float64 // hybrid: the vector-only floor; 0 keeps every result
	Feedback *int     // hybrid: BM25 chunks whose mean vector joins the query's; 0 = none
}

// Apply returns s with o applied. Floor and Feedback change the fusion
// only when there is an embedder, starting from the embedder's default
// fusion when none is configured. An error is a bad setting.
func (o Overrides) Apply(s engine.Settings) (engine.Settings, error) {
	if o.Analyzer != "" {
		s.Analyzer = o.Analyzer
		if err := s.Validate(); err != nil {
			return s, err
		}
	}
	if s.Embedder == nil || o.Floor == nil && o.Feedback == nil {
		return s, nil
	}
	if s.Fusion.Method == "" {
		s.Fusion = engine.DefaultFusion(s.Embedder.Identity())
	}
	if o.Floor != nil {
		s.Fusion.Floor = *o.Floor
		if *o.Floor == 0 {
			s.Fusion.FloorUnknown = 0
		}
	}
	if o.Feedback != nil {
		s.Fusion.Feedback = *o.Feedback
		if err := s.Fusion.Validate(); err != nil {
			return s, err
		}
	}
	return s, nil
}

// DefaultModes are the modes an evaluation runs when the caller names
// none: bm25, and vector and hybrid when s has an embedder.
func DefaultModes(s engine.Settings) []string {
	if s.Embedder == nil {
		return []string{engine.ModeBM25}
	}
	return []string{engine.ModeBM25, engine.ModeVector, engine.ModeHybrid}
}
