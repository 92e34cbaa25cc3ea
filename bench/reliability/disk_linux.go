package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// mountTmpfs mounts a tmpfs of size bytes at dir; it needs root.
func mountTmpfs(dir string, size int64) error {
	if os.Geteuid() != 0 {
		return errors.New("not root: cannot mount a tmpfs")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d", size)); err != nil {
		return fmt.Errorf("mount tmpfs: %w", err)
	}
	return nil
}

// bindReadOnly makes dir read-only through a read-only bind mount of itself
// (root), or by removing its write bits (anyone else).
func bindReadOnly(dir string) (undo func(), err error) {
	if os.Geteuid() != 0 {
		if err := chmodTree(dir, false); err != nil {
			return nil, err
		}
		return func() { _ = chmodTree(dir, true) }, nil
	}
	if err := syscall.Mount(dir, dir, "", syscall.MS_BIND, ""); err != nil {
		return nil, fmt.Errorf("bind mount: %w", err)
	}
	if err := syscall.Mount("", dir, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY, ""); err != nil {
		_ = syscall.Unmount(dir, 0)
		return nil, fmt.Errorf("remount read-only: %w", err)
	}
	return func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) }, nil
}

func chmodTree(dir string, writable bool) error {
	return filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		m := fi.Mode().Perm() &^ 0o222
		if writable {
			m |= 0o200
		}
		return os.Chmod(p, m)
	})
}

func unmount(dir string) { _ = syscall.Unmount(dir, syscall.MNT_DETACH) }

// freeBytes is the space left on dir's file system.
func freeBytes(dir string) (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}

// fill writes a filler file in dir until at most leave bytes are free.
func fill(dir string, leave int64) error {
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		return err
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		free, err := freeBytes(dir)
		if err != nil {
			return err
		}
		if free <= leave {
			return nil
		}
		n := min(int64(len(buf)), free-leave)
		if _, err := f.Write(buf[:n]); err != nil {
			if errors.Is(err, syscall.ENOSPC) {
				return nil
			}
			return err
		}
	}
}

func isNoSpace(s string) bool { return strings.Contains(s, "no space left on device") }
