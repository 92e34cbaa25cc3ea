package fingerprint

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSettled describes a generation, writes a sidecar a second later, and
// checks what Settled trusts: the untouched generation; not one whose file
// was rewritten at the same size, nor one whose artifact is as new as the
// sidecar or has no recorded mtime; and a changed size is Check's error.
func TestSettled(t *testing.T) {
	base := t.TempDir()
	writeTree(t, base, map[string]string{"index/2/a.zap": "aaaa", "index/2/b.zap": "bb"})
	old := time.Now().Add(-time.Hour)
	for _, n := range []string{"a.zap", "b.zap"} {
		mustDo(t, os.Chtimes(filepath.Join(base, "index/2", n), old, old))
	}
	arts, err := Describe(base, "index/2", nil)
	if err != nil {
		t.Fatal(err)
	}
	sidecar := filepath.Join(base, "fingerprint.json")
	mustDo(t, os.WriteFile(sidecar, []byte("{}"), 0o600))
	settled := func(arts []Artifact, want bool, what string) {
		t.Helper()
		got, err := Settled(base, arts, sidecar)
		if err != nil || got != want {
			t.Errorf("%s: Settled = %v, %v; want %v, nil", what, got, err, want)
		}
	}
	settled(arts, true, "untouched")
	noMtime := append([]Artifact(nil), arts...)
	noMtime[1].MtimeNS = 0
	settled(noMtime, false, "an artifact recorded without mtime (an older sidecar)")
	mustDo(t, os.Chtimes(sidecar, old, old))
	settled(arts, false, "an artifact as new as the sidecar")
	mustDo(t, os.Chtimes(sidecar, time.Now(), time.Now()))
	mustDo(t, os.WriteFile(filepath.Join(base, "index/2/a.zap"), []byte("AAAA"), 0o600))
	settled(arts, false, "an artifact rewritten at the same size")
	mustDo(t, os.WriteFile(filepath.Join(base, "index/2/b.zap"), []byte("bbb"), 0o600))
	if _, err := Settled(base, arts, sidecar); !errors.Is(err, ErrMismatch) {
		t.Errorf("resized artifact: Settled error = %v, want ErrMismatch", err)
	}
	settled(nil, true, "no artifacts")
	settled(arts[:0], true, "no artifacts, empty slice")
	if got, _ := Settled(base, nil, filepath.Join(base, "missing.json")); got {
		t.Error("no sidecar file: settled")
	}
}
