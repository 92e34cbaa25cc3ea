package main

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hanwen/go-fuse/v2/fuse"
	"github.com/hanwen/go-fuse/v2/fuse/nodefs"
	"github.com/hanwen/go-fuse/v2/fuse/pathfs"
)

// A case-insensitive file system for the path-resolver checks. This
// kernel has no vfat, ext4 without casefold, and tmpfs refuses -o
// casefold, so the harness serves one itself over FUSE, as ciopfs does: a
// loopback of a backing directory in which every path a process names is
// matched to the existing entries in any case, component by component,
// before the operation. The kernel resolves every path through it, so
// autorag's processes see what they would on a case-insensitive disk
// (.AUTORAG/x opens .autorag/x, .GIT is .git).

// ciFS folds the case of every path before the loopback sees it.
type ciFS struct {
	pathfs.FileSystem
	back string
}

// fold is path with each component replaced by the existing entry that
// names it in any case; components past the first missing one stay.
func (f *ciFS) fold(path string) string {
	if path == "" {
		return path
	}
	parts := strings.Split(path, "/")
	dir := f.back
	for i, p := range parts {
		if _, err := os.Lstat(filepath.Join(dir, p)); err != nil {
			ents, _ := os.ReadDir(dir)
			found := false
			for _, e := range ents {
				if strings.EqualFold(e.Name(), p) {
					parts[i], found = e.Name(), true
					break
				}
			}
			if !found {
				return strings.Join(parts, "/")
			}
		}
		dir = filepath.Join(dir, parts[i])
	}
	return strings.Join(parts, "/")
}

func (f *ciFS) GetAttr(n string, c *fuse.Context) (*fuse.Attr, fuse.Status) {
	return f.FileSystem.GetAttr(f.fold(n), c)
}
func (f *ciFS) Chmod(n string, m uint32, c *fuse.Context) fuse.Status {
	return f.FileSystem.Chmod(f.fold(n), m, c)
}
func (f *ciFS) Chown(n string, u, g uint32, c *fuse.Context) fuse.Status {
	return f.FileSystem.Chown(f.fold(n), u, g, c)
}
func (f *ciFS) Utimens(n string, a, m *time.Time, c *fuse.Context) fuse.Status {
	return f.FileSystem.Utimens(f.fold(n), a, m, c)
}
func (f *ciFS) Truncate(n string, s uint64, c *fuse.Context) fuse.Status {
	return f.FileSystem.Truncate(f.fold(n), s, c)
}
func (f *ciFS) Access(n string, m uint32, c *fuse.Context) fuse.Status {
	return f.FileSystem.Access(f.fold(n), m, c)
}
func (f *ciFS) Link(o, n string, c *fuse.Context) fuse.Status {
	return f.FileSystem.Link(f.fold(o), f.fold(n), c)
}
func (f *ciFS) Mkdir(n string, m uint32, c *fuse.Context) fuse.Status {
	return f.FileSystem.Mkdir(f.fold(n), m, c)
}
func (f *ciFS) Mknod(n string, m, d uint32, c *fuse.Context) fuse.Status {
	return f.FileSystem.Mknod(f.fold(n), m, d, c)
}
func (f *ciFS) Rename(o, n string, c *fuse.Context) fuse.Status {
	return f.FileSystem.Rename(f.fold(o), f.fold(n), c)
}
func (f *ciFS) Rmdir(n string, c *fuse.Context) fuse.Status {
	return f.FileSystem.Rmdir(f.fold(n), c)
}
func (f *ciFS) Unlink(n string, c *fuse.Context) fuse.Status {
	return f.FileSystem.Unlink(f.fold(n), c)
}
func (f *ciFS) Open(n string, fl uint32, c *fuse.Context) (nodefs.File, fuse.Status) {
	return f.FileSystem.Open(f.fold(n), fl, c)
}
func (f *ciFS) Create(n string, fl, m uint32, c *fuse.Context) (nodefs.File, fuse.Status) {
	return f.FileSystem.Create(f.fold(n), fl, m, c)
}
func (f *ciFS) OpenDir(n string, c *fuse.Context) ([]fuse.DirEntry, fuse.Status) {
	return f.FileSystem.OpenDir(f.fold(n), c)
}
func (f *ciFS) Symlink(v, n string, c *fuse.Context) fuse.Status {
	return f.FileSystem.Symlink(v, f.fold(n), c)
}
func (f *ciFS) Readlink(n string, c *fuse.Context) (string, fuse.Status) {
	return f.FileSystem.Readlink(f.fold(n), c)
}

// mountCaseInsensitive serves a case-insensitive view of a new backing
// directory at a new mount point under dir; unmount ends it.
func mountCaseInsensitive(dir string) (mnt string, unmount func(), err error) {
	back, err := os.MkdirTemp(dir, "ci-back-")
	if err != nil {
		return "", nil, err
	}
	if mnt, err = os.MkdirTemp(dir, "ci-mnt-"); err != nil {
		return "", nil, err
	}
	nfs := pathfs.NewPathNodeFs(&ciFS{FileSystem: pathfs.NewLoopbackFileSystem(back), back: back}, nil)
	conn := nodefs.NewFileSystemConnector(nfs.Root(), nil)
	srv, err := fuse.NewServer(conn.RawFS(), mnt, &fuse.MountOptions{DirectMount: true, FsName: "autorag-casefold", Name: "casefold"})
	if err != nil {
		return "", nil, fmt.Errorf("mount FUSE (needs /dev/fuse and root): %w", err)
	}
	go srv.Serve()
	if err := srv.WaitMount(); err != nil {
		return "", nil, err
	}
	return mnt, func() { _ = srv.Unmount() }, nil
}

// caseInsensitive runs the path-entry traps with the root on the
// case-insensitive file system, where .GIT and .Autorag are .git and
// .autorag themselves, and reads autorag's own files through case
// variants of .autorag: every read is refused.
func (h *harness) caseInsensitive() outcome {
	o := outcome{Scenario: "path entries × traps on a case-insensitive file system (FUSE), and read of .autorag's files through case variants"}
	mnt, unmount, err := mountCaseInsensitive(h.work)
	if err != nil {
		o.fail("setup: %v", err)
		return o
	}
	defer unmount()
	if err := os.WriteFile(filepath.Join(mnt, "probe.md"), nil, 0o644); err != nil {
		o.fail("setup: %v", err)
		return o
	}
	if _, err := os.Stat(filepath.Join(mnt, "PROBE.MD")); err != nil {
		o.fail("setup: the mount is not case-insensitive: %v", err)
		return o
	}
	h.trapRun(&o, mnt)
	h.internalReads(&o, mnt)
	return o
}

// internalReads refreshes a root on the mount and asks GET /v1/read for
// .autorag's files named in other cases (each exists through the mount):
// each is refused or not found.
func (h *harness) internalReads(o *outcome, mnt string) {
	root, err := os.MkdirTemp(mnt, "internal-")
	if err != nil {
		o.fail("setup: %v", err)
		return
	}
	defer os.RemoveAll(root)
	if err := os.WriteFile(filepath.Join(root, "ok.md"), []byte("plain heronword\n"), 0o644); err != nil {
		o.fail("setup: %v", err)
		return
	}
	if r := h.cli.run(nil, "--root", root, "refresh", "-q"); r.code != 0 {
		o.fail("refresh: %s", r)
		return
	}
	s, base, err := h.startServer(root, "serve", "--addr", "127.0.0.1:0", "--timeout", "5s")
	if err != nil {
		o.fail("serve: %v", err)
		return
	}
	defer s.kill()
	for _, p := range []string{".AUTORAG/fingerprint.json", ".Autorag/refresh.lock", ".autoRAG/mirror/manifest.bin"} {
		o.Trials++
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			o.fail("%s does not exist through the mount: %v", p, err)
			continue
		}
		code, err := send(base, "GET", "/v1/read?path="+url.QueryEscape(p), nil, nil)
		if err != nil || (code != 403 && code != 404) {
			o.fail("serve: read %s: %d %v, want 403 or 404", p, code, err)
		}
	}
}
