package eval

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// SyncTree makes dst a copy of the tree src, as score.py's copy does
// (symlinks copied as symlinks, never followed), and leaves alone what
// already matches, so a second evaluation refreshes nothing. Like
// Materialize it handles dst as hostile: writes go through an os.Root,
// and only files it wrote (kept in the ledger dst + ".files") are ever
// removed; a file it did not write is an error. The index directory
// (.autorag) is left alone.
func SyncTree(src, dst string) error {
	want, err := treeEntries(src)
	if err != nil {
		return err
	}
	if err := ensureDir(dst, 0o700); err != nil {
		return err
	}
	r, err := os.OpenRoot(dst)
	if err != nil {
		return err
	}
	defer r.Close()
	ledger := dst + ".files"
	wrote, err := readTreeLedger(ledger)
	if err != nil {
		return err
	}
	stale, err := staleFiles(dst, want, wrote)
	if err != nil {
		return err
	}
	if err := writeLedger(ledger, union(wrote, want)); err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if err := syncEntry(r, src, name); err != nil {
			return fmt.Errorf("copy %s: %w", name, err)
		}
	}
	for _, name := range stale {
		if err := r.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return writeLedger(ledger, keys(want))
}

// treeEntries lists the files and symlinks of src by slash path.
func treeEntries(src string) (map[string]string, error) {
	out := map[string]string{}
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.Type().IsRegular() || d.Type()&fs.ModeSymlink != 0 {
			out[filepath.ToSlash(rel)] = rel
		}
		return nil
	})
	return out, err
}

// readTreeLedger is readLedger for slash paths.
func readTreeLedger(path string) (map[string]bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, err
	}
	m := map[string]bool{}
	for _, n := range bytes.Split(b, []byte("\n")) {
		if s := string(n); s != "" && fs.ValidPath(s) {
			m[s] = true
		}
	}
	return m, nil
}

// staleFiles lists dst's files: one SyncTree did not write is an error; it
// returns the written ones src no longer has.
func staleFiles(dst string, want map[string]string, wrote map[string]bool) ([]string, error) {
	var stale []string
	err := filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dst, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == ".autorag" && d.IsDir():
			return filepath.SkipDir
		case d.IsDir():
			return nil
		case !wrote[rel]:
			return fmt.Errorf("workspace %s holds %s, which autorag eval did not write: remove it or choose another --work", dst, rel)
		case want[rel] == "":
			stale = append(stale, rel)
		}
		return nil
	})
	return stale, err
}

// syncEntry copies src's entry name into r unless it is there already.
func syncEntry(r *os.Root, src, name string) error {
	from := filepath.Join(src, filepath.FromSlash(name))
	fi, err := os.Lstat(from)
	if err != nil {
		return err
	}
	if err := r.MkdirAll(filepath.Dir(filepath.FromSlash(name)), 0o700); err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := os.Readlink(from)
		if err != nil {
			return err
		}
		if old, err := r.Readlink(name); err == nil && old == target {
			return nil
		}
		if err := r.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return r.Symlink(target, name)
	}
	body, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return writeDoc(r, name, body)
}
