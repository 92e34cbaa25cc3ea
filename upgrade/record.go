package upgrade

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/fingerprint"
)

// recordFormat versions upgrade.json; a record of another format is
// ignored (and replaced by the next stage).
const recordFormat = 1

// Record is the sidecar of an upgrade in progress, .autorag/upgrade.json:
// the embedder the index is being upgraded to and how far the embedding
// cache holds its vectors. It is advisory: the vectors themselves are in
// the embedding cache, and Count recomputes Done from there.
type Record struct {
	Format int `json:"format"`
	// Target is the embedder identity the upgraded generation will record
	// (as the sidecar's settings name it).
	Target string `json:"target"`
	// Done and Total count the distinct chunk texts of the mirror: those
	// whose Target vector the cache holds, and all. Total is 0 until the
	// upgrader first counted.
	Done    int       `json:"done"`
	Total   int       `json:"total"`
	Started time.Time `json:"started"`
	Updated time.Time `json:"updated"`
}

// Progress is how far an upgrade is, as status and the JSON answers say it.
type Progress struct {
	Target string `json:"target"`
	Done   int    `json:"done"`
	Total  int    `json:"total"`
}

// Path is where the record of l's root lives: l.UpgradePath(), which
// index reset removes and the embedding cache's eviction reads (the name
// is spelled here too so that every answer's Pending reaches no new code;
// TestRecordPath holds the two together).
func Path(l engine.Layout) string { return filepath.Join(l.Dir, "upgrade.json") }

// LockPath is the file the one upgrader of l's root flocks (never removed,
// like the refresh lock).
func LockPath(l engine.Layout) string { return filepath.Join(l.Dir, "upgrade.lock") }

// Read returns the record of l's root; nil when there is none, or one
// this binary cannot read (an upgrade then starts over its count).
func Read(l engine.Layout) *Record {
	b, err := os.ReadFile(Path(l))
	if err != nil {
		return nil
	}
	var r Record
	if json.Unmarshal(b, &r) != nil || r.Format != recordFormat || r.Target == "" {
		return nil
	}
	return &r
}

// write replaces the record atomically (temporary file, fsync, rename).
func write(l engine.Layout, r *Record) error {
	r.Format, r.Updated = recordFormat, time.Now().UTC()
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := fingerprint.MkdirAll(l.Dir); err != nil {
		return fmt.Errorf("write upgrade record: %w", err)
	}
	if err := fingerprint.WriteFileAtomic(Path(l), append(b, '\n'), fingerprint.FilePerm); err != nil {
		return fmt.Errorf("write upgrade record: %w", err)
	}
	return nil
}

// remove drops the record: the upgrade committed, or was given up.
func remove(l engine.Layout) error {
	if err := os.Remove(Path(l)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove upgrade record: %w", err)
	}
	return nil
}

// Of is the progress r says; nil for no record.
func (r *Record) Of() *Progress {
	if r == nil {
		return nil
	}
	return &Progress{Target: r.Target, Done: r.Done, Total: r.Total}
}

// String is what status and --explain print:
// "embedding: 412 / 3,026 chunks with bge-small-en-v1.5-q".
func (p *Progress) String() string { return "embedding: " + p.Counts() }

// Counts is "412 / 3,026 chunks with bge-small-en-v1.5-q" ("?" chunks
// until the upgrader first counted).
func (p *Progress) Counts() string {
	total := "?"
	if p.Total > 0 {
		total = thousands(p.Total)
	}
	return fmt.Sprintf("%s / %s chunks with %s", thousands(p.Done), total, ModelName(p.Target))
}

// ModelName is an embedder identity's model without provider, revision,
// index version and size: "bge-small-en-v1.5-q".
func ModelName(id string) string {
	_, s, ok := strings.Cut(id, "/")
	if !ok {
		return id
	}
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndex(s, "+index"); i >= 0 {
		s = s[:i]
	}
	s, _, _ = strings.Cut(s, "@")
	return s
}

// thousands formats n with comma separators: 3,026.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
