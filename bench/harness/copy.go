package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// treeStats describes a copied tree.
type treeStats struct {
	Files int
	Bytes int64
	// Editable lists the files scenarios may edit, relative with '/'
	// separators and sorted: the markdown files, or every file if there
	// are none.
	Editable []string
}

// copyTree copies the directory src to dst (which must not exist), making
// everything writable by the owner so that a read-only source yields an
// editable copy. Symbolic links are recreated as links, other special files
// are skipped.
func copyTree(src, dst string) (treeStats, error) {
	var st treeStats
	var all []string
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case !d.Type().IsRegular():
			return nil
		}
		n, err := copyFile(path, target)
		if err != nil {
			return err
		}
		st.Files++
		st.Bytes += n
		slashed := filepath.ToSlash(rel)
		all = append(all, slashed)
		if strings.HasSuffix(slashed, ".md") {
			st.Editable = append(st.Editable, slashed)
		}
		return nil
	})
	if err != nil {
		return st, fmt.Errorf("copy %s to %s: %w", src, dst, err)
	}
	if len(st.Editable) == 0 {
		st.Editable = all
	}
	slices.Sort(st.Editable)
	return st, nil
}

func copyFile(src, dst string) (int64, error) {
	in, err := os.Open(src)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return 0, err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm()|0o600)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return n, err
}
