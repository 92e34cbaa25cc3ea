package fingerprint

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestMkdirAllNeverCreatesRoot: a directory under a deleted index root
// fails with ErrRootGone and the root stays deleted (os.MkdirAll created
// it again: the watch root-guard race).
func TestMkdirAllNeverCreatesRoot(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	for _, dir := range []string{filepath.Join(root, IndexDirName), filepath.Join(root, IndexDirName, "index", "000000001")} {
		if err := MkdirAll(dir); !errors.Is(err, ErrRootGone) {
			t.Errorf("MkdirAll(%s) on a missing root: %v, want ErrRootGone", dir, err)
		}
		if _, err := os.Lstat(root); !os.IsNotExist(err) {
			t.Fatalf("MkdirAll(%s) created the missing root: %v", dir, err)
		}
	}
}

// TestMkdirAllBelowRoot: under a root that exists every missing level is
// made with DirPerm, and paths without an index directory are made whole.
func TestMkdirAllBelowRoot(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, IndexDirName, "mirror", "objects")
	if err := MkdirAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := MkdirAll(dir); err != nil {
		t.Fatalf("again: %v", err)
	}
	fi, err := os.Stat(filepath.Join(root, IndexDirName, "mirror"))
	if err != nil || fi.Mode().Perm() != DirPerm {
		t.Fatalf("mirror dir: %v %v, want mode %v", fi, err, DirPerm)
	}
	plain := filepath.Join(root, "a", "b", "c")
	if err := MkdirAll(plain); err != nil {
		t.Fatalf("a path without an index directory: %v", err)
	}
	f := filepath.Join(root, "file")
	if err := os.WriteFile(f, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := MkdirAll(filepath.Join(f, "sub")); err == nil {
		t.Fatal("MkdirAll under a regular file succeeded")
	}
}
