package eval

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Materialize writes every document of ds into dir as one file named after
// its id (escaped, see FileName) with extension ext, and returns the map
// from a file's path (relative to dir) back to the document id. A file that
// already holds the right bytes is left alone, so a second evaluation in
// the same workspace refreshes nothing; files of other names are removed.
//
// A document with a title is written as "# title\n\ntext\n" (the title
// becomes the chunk's heading); one without, as its text.
func Materialize(ds *Dataset, dir, ext string) (map[string]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	paths := make(map[string]string, len(ds.Docs))
	for _, d := range ds.Docs {
		name := FileName(d.ID) + ext
		if _, dup := paths[name]; dup {
			return nil, fmt.Errorf("document id %q appears twice", d.ID)
		}
		paths[name] = d.ID
		body := d.Text + "\n"
		if d.Title != "" {
			body = "# " + d.Title + "\n\n" + d.Text + "\n"
		}
		p := filepath.Join(dir, name)
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, []byte(body)) {
			continue
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return nil, err
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if _, ok := paths[e.Name()]; !ok && e.Type().IsRegular() {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return nil, err
			}
		}
	}
	return paths, nil
}

// FileName is a document id made safe as a file name: bytes other than
// ASCII letters, digits, '-' and '_' (and a leading '.') become %XX.
func FileName(id string) string {
	var sb strings.Builder
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' && i > 0 {
			sb.WriteByte(c)
			continue
		}
		fmt.Fprintf(&sb, "%%%02X", c)
	}
	if sb.Len() == 0 {
		return "%"
	}
	return sb.String()
}
