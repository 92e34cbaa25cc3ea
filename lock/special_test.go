//go:build unix

package lock

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestNotRegular(t *testing.T) {
	tests := []struct {
		name  string
		kind  string
		setup func(t *testing.T, path string)
		check func(t *testing.T, path string) // nothing was changed
	}{
		{
			name: "directory", kind: "directory",
			setup: func(t *testing.T, path string) {
				must(t, os.Mkdir(path, 0o755))
				must(t, os.WriteFile(filepath.Join(path, "inside"), []byte("keep"), 0o644))
			},
			check: func(t *testing.T, path string) {
				entries, err := os.ReadDir(path)
				if err != nil || len(entries) != 1 {
					t.Errorf("directory changed: %v, %v", entries, err)
				}
			},
		},
		{
			name: "symlink to a regular file", kind: "symlink",
			setup: func(t *testing.T, path string) {
				target := filepath.Join(filepath.Dir(path), "target")
				must(t, os.WriteFile(target, []byte("precious"), 0o644))
				must(t, os.Symlink("target", path))
			},
			check: func(t *testing.T, path string) {
				if dest, err := os.Readlink(path); err != nil || dest != "target" {
					t.Errorf("symlink changed: %q, %v", dest, err)
				}
				data, err := os.ReadFile(filepath.Join(filepath.Dir(path), "target"))
				if err != nil || string(data) != "precious" {
					t.Errorf("symlink target changed: %q, %v", data, err)
				}
			},
		},
		{
			name: "dangling symlink", kind: "symlink",
			setup: func(t *testing.T, path string) { must(t, os.Symlink("nowhere", path)) },
			check: func(t *testing.T, path string) {
				if _, err := os.Stat(filepath.Join(filepath.Dir(path), "nowhere")); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("symlink target created: %v", err)
				}
			},
		},
		{
			name: "fifo", kind: "fifo",
			setup: func(t *testing.T, path string) { must(t, syscall.Mkfifo(path, 0o644)) },
			check: func(t *testing.T, path string) {
				fi, err := os.Lstat(path)
				if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
					t.Errorf("fifo changed: %v, %v", fi, err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "refresh.lock")
			tt.setup(t, path)

			l, err := Acquire(t.Context(), path, 0, "autorag refresh")
			if err == nil {
				_ = l.Release()
				t.Fatal("Acquire succeeded")
			}
			if !errors.Is(err, ErrNotRegular) || errors.Is(err, ErrBusy) {
				t.Errorf("Acquire err = %v, want ErrNotRegular", err)
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.kind) {
				t.Errorf("error %q does not name %s and %q", err, path, tt.kind)
			}
			if _, err := Inspect(path); !errors.Is(err, ErrNotRegular) {
				t.Errorf("Inspect err = %v, want ErrNotRegular", err)
			}
			tt.check(t, path)
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
