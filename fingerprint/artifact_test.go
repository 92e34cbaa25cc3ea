package fingerprint

import (
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/zeebo/blake3"
)

func hexSum(s string) string {
	sum := blake3.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// writeTree creates files (slash paths relative to base) with contents.
func writeTree(t *testing.T, base string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestHashFile(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("0123456789abcdef", 10000) // spans many BLAKE3 chunks
	writeTree(t, dir, map[string]string{"empty": "", "small": "hello", "big": big})
	for name, content := range map[string]string{"empty": "", "small": "hello", "big": big} {
		sum, n, err := HashFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("HashFile(%s): %v", name, err)
		}
		if sum != hexSum(content) || n != int64(len(content)) {
			t.Errorf("HashFile(%s) = %s, %d; want %s, %d", name, sum, n, hexSum(content), len(content))
		}
	}
	if _, _, err := HashFile(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("HashFile(missing) err = %v, want ErrNotExist", err)
	}
}

// committed writes a small generation and returns its artifacts.
func committed(t *testing.T, base string) []Artifact {
	t.Helper()
	files := map[string]string{
		"index/1/bleve/store/a.zap": "segment a",
		"index/1/bleve/root.bolt":   "bolt",
		"index/1/chunks.bin":        "chunks",
	}
	writeTree(t, base, files)
	var arts []Artifact
	for name, content := range files {
		arts = append(arts, Artifact{Path: name, Size: int64(len(content)), BLAKE3: hexSum(content)})
	}
	return arts
}

// damage is one way to break the artifact at rel under base.
type damage struct {
	name   string
	apply  func(t *testing.T, p string)
	check  bool   // whether Check (size only) sees it
	reason string // prefix of the Verify reason
}

var damages = []damage{
	{"missing", func(t *testing.T, p string) { mustDo(t, os.Remove(p)) }, true, "missing"},
	{"truncated", func(t *testing.T, p string) { mustDo(t, os.Truncate(p, 3)) }, true, "size 3, want"},
	{"extended", func(t *testing.T, p string) { mustDo(t, os.WriteFile(p, []byte("segment a plus"), 0o644)) }, true, "size 14, want"},
	{"altered same size", func(t *testing.T, p string) { mustDo(t, os.WriteFile(p, []byte("segment b"), 0o644)) }, false, "blake3 "},
	{"replaced by directory", func(t *testing.T, p string) {
		mustDo(t, os.Remove(p))
		mustDo(t, os.Mkdir(p, 0o755))
	}, true, "not a regular file"},
	{"replaced by symlink", func(t *testing.T, p string) {
		mustDo(t, os.Rename(p, p+".real"))
		mustDo(t, os.Symlink(filepath.Base(p)+".real", p))
	}, true, "not a regular file"},
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestCheckAndVerifyIntact(t *testing.T) {
	base := t.TempDir()
	arts := committed(t, base)
	if err := Check(base, arts); err != nil {
		t.Errorf("Check on intact artifacts: %v", err)
	}
	problems, err := Verify(base, arts)
	if err != nil || len(problems) != 0 {
		t.Errorf("Verify on intact artifacts = %v, %v", problems, err)
	}
}

func TestCheckAndVerifyDamage(t *testing.T) {
	const victim = "index/1/bleve/store/a.zap"
	for _, d := range damages {
		t.Run(d.name, func(t *testing.T) {
			base := t.TempDir()
			arts := committed(t, base)
			d.apply(t, filepath.Join(base, filepath.FromSlash(victim)))

			err := Check(base, arts)
			switch {
			case d.check && !errors.Is(err, ErrMismatch):
				t.Errorf("Check err = %v, want ErrMismatch", err)
			case d.check && !strings.Contains(err.Error(), victim):
				t.Errorf("Check error %q does not name %s", err, victim)
			case !d.check && err != nil:
				t.Errorf("Check err = %v, want nil (sizes match)", err)
			}

			problems, err := Verify(base, arts)
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if len(problems) != 1 || problems[0].Path != victim || !strings.HasPrefix(problems[0].Reason, d.reason) {
				t.Errorf("Verify = %+v, want one problem for %s starting %q", problems, victim, d.reason)
			}
		})
	}
}

func TestVerifyReportsEveryProblem(t *testing.T) {
	base := t.TempDir()
	arts := committed(t, base)
	mustDo(t, os.Remove(filepath.Join(base, "index/1/chunks.bin")))
	mustDo(t, os.WriteFile(filepath.Join(base, "index/1/bleve/root.bolt"), []byte("BOLT"), 0o644))
	problems, err := Verify(base, arts)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, p := range problems {
		got[p.Path] = true
	}
	want := map[string]bool{"index/1/chunks.bin": true, "index/1/bleve/root.bolt": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

// TestCheckRefusesEscapingPaths plants the file an escaping path names, with
// the recorded size and digest, so that only the path check can refuse it.
func TestCheckRefusesEscapingPaths(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(filepath.Dir(base), "outside")
	mustDo(t, os.WriteFile(outside, nil, 0o644))
	arts := []Artifact{{Path: "../outside", Size: 0, BLAKE3: hexSum("")}}
	if err := Check(base, arts); err == nil || errors.Is(err, ErrMismatch) {
		t.Errorf("Check of artifact path %q = %v, want a refusal (it would stat %s)", arts[0].Path, err, outside)
	}
	if problems, err := Verify(base, arts); err == nil {
		t.Errorf("Verify accepted artifact path %q (problems %v)", arts[0].Path, problems)
	}
}

var ignoreMtime = cmpopts.IgnoreFields(Artifact{}, "MtimeNS")

func TestDescribe(t *testing.T) {
	base := t.TempDir()
	writeTree(t, base, map[string]string{
		"index/2/b.txt":      "bee",
		"index/2/a/x.zap":    "zap x",
		"index/2/a.txt":      "",
		"index/1/other.txt":  "not described",
		"mirror/manifest.js": "not described",
	})
	got, err := Describe(base, "index/2", nil)
	if err != nil {
		t.Fatalf("Describe: %v", err)
	}
	want := []Artifact{
		{Path: "index/2/a.txt", Size: 0, BLAKE3: hexSum("")},
		{Path: "index/2/a/x.zap", Size: 5, BLAKE3: hexSum("zap x")},
		{Path: "index/2/b.txt", Size: 3, BLAKE3: hexSum("bee")},
	}
	if diff := cmp.Diff(want, got, ignoreMtime); diff != "" {
		t.Errorf("Describe (-want +got):\n%s", diff)
	}
	for _, a := range got {
		if a.MtimeNS == 0 {
			t.Errorf("%s: no mtime recorded", a.Path)
		}
	}
	if err := Check(base, got); err != nil {
		t.Errorf("Check of described artifacts: %v", err)
	}
}

func TestDescribeRefusesNonRegular(t *testing.T) {
	base := t.TempDir()
	writeTree(t, base, map[string]string{"index/2/a.txt": "a"})
	mustDo(t, os.Symlink("a.txt", filepath.Join(base, "index/2/link")))
	if _, err := Describe(base, "index/2", nil); err == nil {
		t.Error("Describe accepted a symlink inside the generation")
	}
	if _, err := Describe(base, "../x", nil); err == nil {
		t.Error("Describe accepted an escaping directory")
	}
}

// TestDescribeReuse proves reuse by planting a deliberately wrong digest in
// the previous artifacts: a reused digest shows up as that wrong value.
func TestDescribeReuse(t *testing.T) {
	const planted = "0000000000000000000000000000000000000000000000000000000000000000"
	base := t.TempDir()
	writeTree(t, base, map[string]string{
		"index/1/seg.zap":     "immutable segment",
		"index/1/resized.zap": "old",
		"index/1/same.zap":    "AAAA",
	})
	mustDo(t, os.MkdirAll(filepath.Join(base, "index/2"), 0o755))
	for _, name := range []string{"seg.zap", "resized.zap"} {
		mustDo(t, os.Link(filepath.Join(base, "index/1", name), filepath.Join(base, "index/2", name)))
	}
	// resized.zap is linked, but the previous sidecar recorded another size.
	// same.zap has the same name and size but is a new file, not a link.
	writeTree(t, base, map[string]string{"index/2/same.zap": "BBBB", "index/2/new.zap": "new"})
	reuse := &Reuse{Dir: "index/1", Artifacts: []Artifact{
		{Path: "index/1/seg.zap", Size: 17, BLAKE3: planted},
		{Path: "index/1/resized.zap", Size: 99, BLAKE3: planted},
		{Path: "index/1/same.zap", Size: 4, BLAKE3: planted},
	}}
	got, err := Describe(base, "index/2", reuse)
	if err != nil {
		t.Fatalf("Describe: %v", err)
	}
	want := []Artifact{
		{Path: "index/2/new.zap", Size: 3, BLAKE3: hexSum("new")},
		{Path: "index/2/resized.zap", Size: 3, BLAKE3: hexSum("old")},
		{Path: "index/2/same.zap", Size: 4, BLAKE3: hexSum("BBBB")},
		{Path: "index/2/seg.zap", Size: 17, BLAKE3: planted},
	}
	if diff := cmp.Diff(want, got, ignoreMtime); diff != "" {
		t.Errorf("Describe with reuse (-want +got):\n%s", diff)
	}
}
