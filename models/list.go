package models

import (
	"os"
	"path/filepath"
)

// Status is what the cache holds of one catalog model.
type Status struct {
	Model
	Installed bool
	Dir       string
	Bytes     int64    // size of the installed files
	Missing   []string // files not installed (or changed since)
}

// List reports every catalog model's state in dir.
func List(dir string) ([]Status, error) {
	var out []Status
	for _, m := range Catalog() {
		md := filepath.Join(dir, m.Name)
		st, err := readStamp(md)
		if err != nil {
			return nil, err
		}
		s := Status{Model: m, Dir: md}
		for _, f := range m.Files {
			if st.check(md, f) != nil {
				s.Missing = append(s.Missing, f.Name)
				continue
			}
			if fi, err := os.Stat(filepath.Join(md, f.Name)); err == nil {
				s.Bytes += fi.Size()
			}
		}
		st.remember(md)
		s.Installed = len(s.Missing) == 0
		out = append(out, s)
	}
	return out, nil
}

// DownloadSize is the size of the model's files as the catalog pins them:
// what a pull fetches.
func (m Model) DownloadSize() int64 {
	var n int64
	for _, f := range m.Files {
		n += f.Size
	}
	return n
}
