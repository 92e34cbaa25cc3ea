package fingerprint

import (
	"errors"
	"fmt"
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

// TestEveryCommitSettled commits generations in a loop as the engine does
// (write the files, Describe, WriteSidecar at once), each in the same tick
// of the file clock as its last artifact more often than not: each must
// be settled, and a rewrite of one of its artifacts at the same size right
// after the commit must still be seen.
func TestEveryCommitSettled(t *testing.T) {
	base := t.TempDir()
	sidecar := filepath.Join(base, "fingerprint.json")
	for i := range 40 {
		gen := fmt.Sprintf("%09d", i+1)
		rel := "index/" + gen
		writeTree(t, base, map[string]string{rel + "/a.zap": "aaaa", rel + "/files.log": fmt.Sprintf("%04d", i)})
		arts, err := Describe(base, rel, nil)
		if err != nil {
			t.Fatal(err)
		}
		sc := sampleSidecar()
		sc.Generation, sc.Artifacts = gen, arts
		mustDo(t, WriteSidecar(sidecar, sc))
		if ok, err := Settled(base, arts, sidecar); err != nil || !ok {
			t.Fatalf("commit %d: Settled = %v, %v right after WriteSidecar; want true", i, ok, err)
		}
		mustDo(t, os.WriteFile(filepath.Join(base, rel, "files.log"), []byte("XXXX"), 0o600))
		if ok, err := Settled(base, arts, sidecar); err != nil || ok {
			t.Fatalf("commit %d: Settled = %v, %v after an artifact was rewritten; want false", i, ok, err)
		}
	}
}

// TestSettleWaitsForTheFileClock gives WriteSidecar artifacts recorded a
// few milliseconds in the future, which no kernel stamp can pass at once:
// it must wait until the file clock does (the path a coarse clock takes),
// and give up without an error, leaving the commit unsettled, when that
// would take longer than settleWait.
func TestSettleWaitsForTheFileClock(t *testing.T) {
	base := t.TempDir()
	sidecar := filepath.Join(base, "fingerprint.json")
	for _, tc := range []struct {
		ahead time.Duration
		newer bool
	}{{5 * time.Millisecond, true}, {time.Hour, false}} {
		sc := sampleSidecar()
		soon := time.Now().Add(tc.ahead).UnixNano()
		sc.Artifacts[1].MtimeNS = soon
		mustDo(t, WriteSidecar(sidecar, sc))
		fi, err := os.Lstat(sidecar)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.ModTime().UnixNano() > soon; got != tc.newer {
			t.Errorf("artifact %v ahead: sidecar stamped after it = %v, want %v", tc.ahead, got, tc.newer)
		}
		if got, err := ReadSidecar(sidecar); err != nil || got.Artifacts[1].MtimeNS != soon {
			t.Errorf("artifact %v ahead: read back %v, %v", tc.ahead, got, err)
		}
	}
}
