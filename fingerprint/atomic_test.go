package fingerprint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dirNames lists the names in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteFileAtomic(t *testing.T) {
	tests := []struct {
		name     string
		existing string // "" means no file before the write
		data     string
	}{
		{name: "creates", data: "first"},
		{name: "replaces", existing: "old content that is longer", data: "new"},
		{name: "empty", existing: "something", data: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "fingerprint.json")
			if tt.existing != "" {
				if err := os.WriteFile(p, []byte(tt.existing), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := WriteFileAtomic(p, []byte(tt.data), 0o644); err != nil {
				t.Fatalf("WriteFileAtomic: %v", err)
			}
			got, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.data {
				t.Errorf("content = %q, want %q", got, tt.data)
			}
			if names := dirNames(t, dir); len(names) != 1 || names[0] != "fingerprint.json" {
				t.Errorf("directory holds %q, want only fingerprint.json", names)
			}
		})
	}
}

func TestWriteFileAtomicPerm(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := WriteFileAtomic(p, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600", fi.Mode().Perm())
	}
}

func TestWriteFileAtomicFailureLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	// The target is a non-empty directory: the rename must fail after the
	// temporary file was written.
	target := filepath.Join(dir, "target")
	if err := os.MkdirAll(filepath.Join(target, "child"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := WriteFileAtomic(target, []byte("data"), 0o644)
	if err == nil {
		t.Fatal("WriteFileAtomic over a non-empty directory succeeded")
	}
	for _, name := range dirNames(t, dir) {
		if strings.HasPrefix(name, TempPrefix) {
			t.Errorf("temporary file %s left behind after failure", name)
		}
	}
	if fi, err := os.Stat(target); err != nil || !fi.IsDir() {
		t.Errorf("target changed: %v, %v", fi, err)
	}
}

func TestWriteFileAtomicMissingDir(t *testing.T) {
	p := filepath.Join(t.TempDir(), "missing", "f")
	if err := WriteFileAtomic(p, []byte("x"), 0o644); err == nil {
		t.Fatal("WriteFileAtomic into a missing directory succeeded")
	}
}

func TestSyncDir(t *testing.T) {
	dir := t.TempDir()
	if err := SyncDir(dir); err != nil {
		t.Errorf("SyncDir(%s): %v", dir, err)
	}
	if err := SyncDir(filepath.Join(dir, "missing")); err == nil {
		t.Error("SyncDir of a missing directory succeeded")
	}
}
