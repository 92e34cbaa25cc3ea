package upgrade

import (
	"os"
	"testing"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/engine/embed/static"
)

func TestModelName(t *testing.T) {
	for _, c := range []struct{ id, want string }{
		{"transformer/bge-small-en-v1.5-q@main+sha256:afdb6f1a0e45b715+cls+512+v2+index21/384", "bge-small-en-v1.5-q"},
		{"transformer/all-minilm-l6-v2-q@main+sha256:afdb+mean+256+v2/384", "all-minilm-l6-v2-q"},
		{"openai/text-embedding-3-small+index21/1536", "text-embedding-3-small"},
		{"openai/org/model-x@max-tokens=512+index21/768", "org/model-x"},
		{"none", "none"},
	} {
		if got := ModelName(c.id); got != c.want {
			t.Errorf("ModelName(%q) = %q, want %q", c.id, got, c.want)
		}
	}
}

func TestProgressString(t *testing.T) {
	p := &Progress{Target: "transformer/bge-small-en-v1.5-q@main+index21/384", Done: 412, Total: 3026}
	if got, want := p.String(), "embedding: 412 / 3,026 chunks with bge-small-en-v1.5-q"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	p.Total = 0
	if got, want := p.Counts(), "412 / ? chunks with bge-small-en-v1.5-q"; got != want {
		t.Errorf("before counting: got %q, want %q", got, want)
	}
}

// TestRecordRoundTrip: a record written is read back; one of another
// format, or damaged, reads as none.
func TestRecordRoundTrip(t *testing.T) {
	l, err := engine.NewLayout(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if Read(l) != nil {
		t.Fatal("a record before any was written")
	}
	if err := write(l, &Record{Target: "transformer/m/384", Done: 3, Total: 9}); err != nil {
		t.Fatal(err)
	}
	if r := Read(l); r == nil || r.Target != "transformer/m/384" || r.Done != 3 || r.Total != 9 {
		t.Fatalf("read back %+v", r)
	}
	for _, bad := range []string{`{"format":99,"target":"x"}`, `{"format":1`, `{"format":1,"target":""}`} {
		if err := os.WriteFile(Path(l), []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		if r := Read(l); r != nil {
			t.Errorf("record %s read as %+v, want none", bad, r)
		}
	}
}

// TestStageDropsRecord: a recorded upgrade is dropped, and the refresh
// planned unstaged, when the built-in embedder is chosen, and when nothing
// is indexed and the settings do not choose its target (a reset crossed by
// an upgrader's last write, a first stage that failed): that refresh
// follows the settings, and no upgrade follows it.
func TestStageDropsRecord(t *testing.T) {
	chosen := engine.DefaultSettings()
	chosen.Embedder, chosen.EmbedderChosen = static.New(), true
	for name, s := range map[string]engine.Settings{"fast embedder chosen": chosen, "nothing indexed": engine.DefaultSettings()} {
		t.Run(name, func(t *testing.T) {
			e, err := engine.New(t.TempDir(), s)
			if err != nil {
				t.Fatal(err)
			}
			if err := write(e.Layout, &Record{Target: "transformer/m/384"}); err != nil {
				t.Fatal(err)
			}
			p, err := Stage(t.Context(), e, nil)
			if err != nil || p.Staged() || p.Writer != e {
				t.Fatalf("Stage: %+v, %v; want the engine itself, unstaged", p, err)
			}
			if Read(e.Layout) != nil {
				t.Fatal("the upgrade record survived")
			}
		})
	}
}

// TestRecordPath: the record is where engine looks for it (index reset,
// the embedding cache's eviction).
func TestRecordPath(t *testing.T) {
	l, err := engine.NewLayout(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if Path(l) != l.UpgradePath() {
		t.Fatalf("upgrade.Path %s, engine's %s", Path(l), l.UpgradePath())
	}
}
