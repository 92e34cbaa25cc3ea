package fingerprint

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/autorag/autorag/internal/failpoint"
)

// TestOneAtomicWriteHelper is defect 11: the temp → write → fsync → rename
// → fsync-dir sequence lives in atomic.go only, so the rule of defect 2
// ("after the rename the write has happened") holds for every caller. The
// bench harness, which writes corpora outside any .autorag, is exempt.
func TestOneAtomicWriteHelper(t *testing.T) {
	var offenders []string
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "bench" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || filepath.Base(p) == "atomic.go" && filepath.Base(filepath.Dir(p)) == "fingerprint" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, call := range []string{"os.CreateTemp(", "os.Rename(", "os.MkdirTemp("} {
			if strings.Contains(string(b), call) {
				offenders = append(offenders, p+": "+call)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(offenders) > 0 {
		t.Fatalf("temporary files or renames outside fingerprint/atomic.go:\n%s", strings.Join(offenders, "\n"))
	}
}

// TestRenamedButNotSynced checks the explicit outcome of defect 2: when
// the directory fsync fails after the rename, the new content is in place
// and the error says so (Renamed), for every caller of the helper.
func TestRenamedButNotSynced(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "state.bin")
	if err := WriteFileAtomic(p, []byte("old"), FilePerm); err != nil {
		t.Fatal(err)
	}
	restore := failpoint.Set("after-rename-state.bin:error")
	err := WriteFileAtomic(p, []byte("new"), FilePerm)
	restore()
	if !Renamed(err) || !errors.Is(err, failpoint.ErrInjected) {
		t.Fatalf("err = %v, want a DirSyncError", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Fatalf("content %q after a renamed write, want the new one", b)
	}
	// A failure before the rename is not Renamed and changes nothing.
	if err := WriteFileAtomic(filepath.Join(dir, "absent", "x"), []byte("y"), FilePerm); err == nil || Renamed(err) {
		t.Fatalf("write into a missing directory: %v", err)
	}
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("directory holds %v, want only state.bin", names)
	}
}

// TestSidecarGenerationValidated is part of defect 3: a tampered sidecar
// cannot name a path outside index/ as its generation.
func TestSidecarGenerationValidated(t *testing.T) {
	for _, gen := range []string{"", ".", "..", "../../etc", "000000001/../x", "a", "000000001.tmp", "/abs", strings.Repeat("1", 21)} {
		data := `{"format":1,"fingerprint":"` + hex64 + `","generation":` + strconv.Quote(gen) + `}`
		if _, err := ParseSidecar([]byte(data)); !errors.Is(err, ErrCorruptSidecar) {
			t.Errorf("generation %q: err = %v, want ErrCorruptSidecar", gen, err)
		}
	}
	data := `{"format":1,"fingerprint":"` + hex64 + `","generation":"000000042"}`
	if _, err := ParseSidecar([]byte(data)); err != nil {
		t.Errorf("a plain generation name is refused: %v", err)
	}
}
