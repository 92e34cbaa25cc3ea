package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPrivatePermissions is defect 9: everything autorag creates under
// .autorag (mirror, packs, caches, query cache, generations, sidecar, lock,
// counter) is 0600 for files and 0700 for directories: they hold document
// and query texts.
func TestPrivatePermissions(t *testing.T) {
	root := copyCorpus(t)
	refreshJSON(t, root)
	checkPrivate(t, root) // a fresh build
	writeFile(t, root, "notes/perm.md", "# Perm\n\nan incremental refresh clones the generation\n")
	writeFile(t, root, "notes/broken.pdf", "%PDF-1.4 a file no parser reads\n")
	refreshJSON(t, root)
	if _, err := os.Stat(filepath.Join(root, ".autorag", "mirror", "failed.json")); err != nil {
		t.Fatalf("the parse-failure memo: %v", err) // checked below
	}
	mustOK(t, "--root", root, "query", "retry with backoff")
	mustOK(t, "--root", root, "query", "--json", "rotate signing keys")
	checkPrivate(t, root)
}

func checkPrivate(t *testing.T, root string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(filepath.Join(root, ".autorag"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		n++
		switch {
		case fi.IsDir() && fi.Mode().Perm() != 0o700:
			t.Errorf("directory %s has mode %v, want 0700", p, fi.Mode().Perm())
		case fi.Mode().IsRegular() && fi.Mode().Perm() != 0o600:
			t.Errorf("file %s has mode %v, want 0600", p, fi.Mode().Perm())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 20 {
		t.Fatalf("only %d entries under .autorag: the test checks too little", n)
	}
}
