package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/embed/static"
)

func TestOverridesApply(t *testing.T) {
	withEmbedder := engine.DefaultSettings()
	withEmbedder.Embedder = static.New()
	def := engine.DefaultFusion(withEmbedder.Embedder.Identity())
	zero, three, tooMany := 0.0, 3, 1<<20

	s, err := Overrides{}.Apply(withEmbedder)
	if err != nil || s.Fusion != withEmbedder.Fusion {
		t.Errorf("no overrides changed the fusion: %+v %v", s.Fusion, err)
	}
	s, err = Overrides{Floor: &zero}.Apply(withEmbedder)
	if err != nil || s.Fusion.Method != def.Method || s.Fusion.Floor != 0 || s.Fusion.FloorUnknown != 0 || s.Fusion.Feedback != def.Feedback {
		t.Errorf("floor 0: %+v %v, want the default fusion %+v without floors", s.Fusion, err, def)
	}
	s, err = Overrides{Feedback: &three}.Apply(withEmbedder)
	if err != nil || s.Fusion.Feedback != 3 || s.Fusion.Floor != def.Floor {
		t.Errorf("feedback 3: %+v %v", s.Fusion, err)
	}
	if _, err := (Overrides{Feedback: &tooMany}).Apply(withEmbedder); err == nil {
		t.Error("feedback out of range accepted")
	}
	bm25 := engine.DefaultSettings()
	if s, err := (Overrides{Floor: &zero, Feedback: &three}).Apply(bm25); err != nil || s.Fusion != bm25.Fusion {
		t.Errorf("without an embedder the fusion changed: %+v %v", s.Fusion, err)
	}
	if s, err := (Overrides{Analyzer: "english"}).Apply(bm25); err != nil || s.Analyzer != "english" {
		t.Errorf("analyzer english: %q %v", s.Analyzer, err)
	}
	if _, err := (Overrides{Analyzer: "klingon"}).Apply(bm25); err == nil {
		t.Error("an unknown analyzer accepted")
	}
}

func TestDefaultModes(t *testing.T) {
	s := engine.DefaultSettings()
	if got := strings.Join(DefaultModes(s), ","); got != "bm25" {
		t.Errorf("without an embedder: %s", got)
	}
	s.Embedder = static.New()
	if got := strings.Join(DefaultModes(s), ","); got != "bm25,vector,hybrid" {
		t.Errorf("with an embedder: %s", got)
	}
}

// TestDefaultWorkspace: one private directory per set, extension and
// analyzer, the same on every run.
func TestDefaultWorkspace(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	set := t.TempDir()
	a, err := DefaultWorkspace(set, ".md", "")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := DefaultWorkspace(set, ".md", "")
	py, _ := DefaultWorkspace(set, ".py", "")
	en, _ := DefaultWorkspace(set, ".md", "english")
	if a != again || a == py || a == en || py == en {
		t.Errorf("workspaces %s %s %s %s", a, again, py, en)
	}
	if !strings.HasPrefix(filepath.Base(a), filepath.Base(set)+"-") {
		t.Errorf("%s is not named after the set %s", a, set)
	}
	for _, d := range []string{a, filepath.Dir(a)} {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v %v, want a 0700 directory", d, fi.Mode(), err)
		}
	}
}
