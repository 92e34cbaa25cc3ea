package mirror

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"

	"github.com/autorag/autorag/fingerprint"
)

// ParseFailure is a file its parser rejected (encrypted, damaged, over a
// parse limit, timed out), remembered with the size, mtime and parser it
// had, so that later scans report it again without reading and parsing it
// while none of them change. A hostile file then costs one parse, not one
// per refresh.
type ParseFailure struct {
	Size    int64  `json:"size"`
	MtimeNS int64  `json:"mtime_ns"`
	Parser  string `json:"parser"`
	Reason  string `json:"reason"`
}

// FailMemo maps paths to their remembered parse failures. The zero value
// (or nil) remembers nothing.
type FailMemo struct {
	Files map[string]ParseFailure `json:"files"`
}

// LoadFailMemo reads a memo written by Save; a missing or unreadable one is
// empty (the files are simply parsed again).
func LoadFailMemo(path string) *FailMemo {
	m := &FailMemo{}
	if b, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(b, m)
	}
	return m
}

// Save writes the memo atomically.
func (m *FailMemo) Save(path string) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if err := fingerprint.MkdirAll(filepath.Dir(path)); err != nil {
		return err
	}
	return fingerprint.WriteFileAtomic(path, b, 0o600)
}

// lookup returns the remembered failure of candidate c, if it still
// applies.
func (m *FailMemo) lookup(c *candidate, accepts func(*candidate, string) bool) (ParseFailure, bool) {
	if m == nil {
		return ParseFailure{}, false
	}
	f, ok := m.Files[c.rel]
	return f, ok && f.Size == c.size && f.MtimeNS == c.mtime && accepts(c, f.Parser)
}

// next is the memo after a scan: the entries of paths the scan did not
// cover, the failures it repeated from the memo, and its new ones.
func (m *FailMemo) next(cov *coverage, repeated, fresh map[string]ParseFailure) *FailMemo {
	out := &FailMemo{Files: map[string]ParseFailure{}}
	if m != nil {
		for p, f := range m.Files {
			if !cov.covers(p) {
				out.Files[p] = f
			}
		}
	}
	maps.Copy(out.Files, repeated)
	maps.Copy(out.Files, fresh)
	return out
}

// Equal reports whether two memos hold the same failures.
func (m *FailMemo) Equal(o *FailMemo) bool {
	var a, b map[string]ParseFailure
	if m != nil {
		a = m.Files
	}
	if o != nil {
		b = o.Files
	}
	return maps.Equal(a, b)
}
