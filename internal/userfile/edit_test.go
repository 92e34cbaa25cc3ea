package userfile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func appendLine(line string) Change {
	return func(old []byte) ([]byte, error) { return append(old, line+"\n"...), nil }
}

// TestEditConcurrentEditorsLoseNothing: editors at once each add a line;
// every line survives.
func TestEditConcurrentEditorsLoseNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.txt")
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := range 20 {
		wg.Go(func() {
			_, err := Edit(context.Background(), path, Options{Perm: 0o600}, appendLine(fmt.Sprint("line ", i)))
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	b, _ := os.ReadFile(path)
	if n := strings.Count(string(b), "\n"); n != 20 {
		t.Errorf("%d lines survived, want 20:\n%s", n, b)
	}
}

// TestEditThroughSymlink: a link is edited through, and stays a link.
func TestEditThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "conf")
	os.MkdirAll(filepath.Dir(real), 0o755)
	os.WriteFile(real, []byte("a\n"), 0o640)
	link := filepath.Join(dir, "conf")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	res, err := Edit(context.Background(), link, Options{Backup: BackupEach}, appendLine("b"))
	if err != nil || res.Path != real || res.Backup != real+".bak" {
		t.Fatalf("edit: %+v %v", res, err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a %v", fi.Mode())
	}
	if b, _ := os.ReadFile(real); string(b) != "a\nb\n" {
		t.Errorf("target holds %q", b)
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the file's 0640", fi.Mode().Perm())
	}
	dangling := filepath.Join(dir, "dangling")
	os.Symlink(filepath.Join(dir, "nowhere"), dangling)
	if _, err := Edit(context.Background(), dangling, Options{}, appendLine("x")); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a dangling link: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "nowhere")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dangling link's target was created: %v", err)
	}
}

// TestEditRefusesReadOnly: a 0444 file is left as it is.
func TestEditRefusesReadOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ro")
	os.WriteFile(path, []byte("keep\n"), 0o444)
	_, err := Edit(context.Background(), path, Options{Backup: BackupEach}, appendLine("x"))
	var ro *ReadOnlyError
	if !errors.As(err, &ro) || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("edit of a read-only file: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "keep\n" {
		t.Errorf("content %q", b)
	}
	if _, err := os.Stat(path + ".bak"); err == nil {
		t.Error("a backup was made of a file that was not edited")
	}
}

// TestEditUnchangedWritesNothing: the same content makes no backup.
func TestEditUnchangedWritesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	os.WriteFile(path, []byte("same"), 0o600)
	res, err := Edit(context.Background(), path, Options{Backup: BackupEach}, func(old []byte) ([]byte, error) { return old, nil })
	if err != nil || res.Changed || res.Backup != "" {
		t.Errorf("%+v %v", res, err)
	}
	res, err = Edit(context.Background(), path, Options{Backup: BackupEach}, appendLine("x"))
	if err != nil || !res.Changed || res.Backup != path+".bak" {
		t.Errorf("%+v %v", res, err)
	}
	if b, _ := os.ReadFile(res.Backup); string(b) != "same" {
		t.Errorf("backup %q", b)
	}
}

// TestBackupLatestKeepsOne: a file edited often keeps one backup, of the
// version before the last edit.
func TestBackupLatestKeepsOne(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	os.WriteFile(path, []byte("v1\n"), 0o600)
	for _, l := range []string{"v2", "v3"} {
		res, err := Edit(context.Background(), path, Options{Backup: BackupLatest}, func([]byte) ([]byte, error) { return []byte(l + "\n"), nil })
		if err != nil || res.Backup != path+".bak" {
			t.Fatalf("%+v %v", res, err)
		}
	}
	if b, _ := os.ReadFile(path + ".bak"); string(b) != "v2\n" {
		t.Errorf("backup holds %q, want v2", b)
	}
	if _, err := os.Stat(path + ".bak.2"); err == nil {
		t.Error("a second backup file")
	}
}
