package fingerprint

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

//semguard:begin sidecar

// FormatVersion is the sidecar format this package reads and writes.
const FormatVersion = 1

var (
	// ErrNoSidecar reports that no sidecar exists: nothing was ever committed.
	ErrNoSidecar = errors.New("no sidecar: index not built yet")
	// ErrCorruptSidecar reports a sidecar that is not valid JSON or whose
	// fields are malformed (bad digest, artifact path outside the directory).
	ErrCorruptSidecar = errors.New("corrupt sidecar")
	// ErrSidecarFormat reports a sidecar written in a format this binary does
	// not know.
	ErrSidecarFormat = errors.New("unsupported sidecar format")
)

// Artifact is one committed file with the digest it had when committed.
type Artifact struct {
	// Path is relative to the .autorag directory, with '/' separators, e.g.
	// "index/000000012/bleve/store/00000000002a.zap".
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	BLAKE3 string `json:"blake3"` // lowercase hex
	// MtimeNS is the file's modification time when Describe saw it (0:
	// not recorded, as in sidecars written before it was); see Settled.
	MtimeNS int64 `json:"mtime_ns,omitempty"`
}

// Counts describes the committed index.
type Counts struct {
	Files  int `json:"files"`
	Chunks int `json:"chunks"`
	// Tokens is the total number of analyzed tokens over all chunks; the
	// BM25 average document length is Tokens/Chunks.
	Tokens int64 `json:"tokens"`
}

// Refresh holds the persisted facts of the refresh that wrote the sidecar, so
// that status reports them without any process having stayed alive.
type Refresh struct {
	Outcome  string    `json:"outcome"`
	At       time.Time `json:"at"`
	TookMS   float64   `json:"took_ms"`
	Added    int       `json:"added"`
	Modified int       `json:"modified"`
	Deleted  int       `json:"deleted"`
	Renamed  int       `json:"renamed"`
	Failed   int       `json:"failed"`
}

// Sidecar is the content of .autorag/fingerprint.json, the commit record of
// the index. See the package documentation for the format and protocol.
type Sidecar struct {
	Format           int               `json:"format"`
	SemanticsVersion int               `json:"semantics_version"`
	Fingerprint      string            `json:"fingerprint"`
	Generation       string            `json:"generation"`
	Settings         map[string]string `json:"settings"`
	Counts           Counts            `json:"counts"`
	Artifacts        []Artifact        `json:"artifacts"`
	Refresh          Refresh           `json:"refresh"`
}

// ReadSidecar reads and validates the sidecar at path. A missing file yields
// an error wrapping ErrNoSidecar; malformed content one wrapping
// ErrCorruptSidecar; an unknown format one wrapping ErrSidecarFormat.
func ReadSidecar(path string) (*Sidecar, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read sidecar %s: %w", path, ErrNoSidecar)
	}
	if err != nil {
		return nil, fmt.Errorf("read sidecar: %w", err)
	}
	s, err := ParseSidecar(data)
	if err != nil {
		return nil, fmt.Errorf("read sidecar %s: %w", path, err)
	}
	return s, nil
}

// ParseSidecar decodes and validates sidecar content (see ReadSidecar).
func ParseSidecar(data []byte) (*Sidecar, error) {
	var s Sidecar
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorruptSidecar, err)
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

// WriteSidecar atomically replaces the sidecar at path with s. This is the
// commit point of a refresh: call it only after the generation s names is
// completely written and fsynced. The new sidecar is stamped later than
// every artifact's recorded time, so that the commit is settled (see
// Settled and settleAfter; this may wait a tick of the file clock). A zero
// s.Format is written as FormatVersion; s itself is not modified.
func WriteSidecar(path string, s *Sidecar) error {
	out := *s
	if out.Format == 0 {
		out.Format = FormatVersion
	}
	if err := out.validate(); err != nil {
		return fmt.Errorf("write sidecar %s: %w", path, err)
	}
	data, err := json.MarshalIndent(&out, "", "  ")
	if err != nil {
		return fmt.Errorf("write sidecar %s: %w", path, err)
	}
	newest := newestMtime(out.Artifacts)
	return writeFile(path, append(data, '\n'), FilePerm, true, func(f *os.File) error {
		return settleAfter(f, data[0], newest)
	})
}

//semguard:end sidecar

// validate checks the fields a reader relies on.
func (s *Sidecar) validate() error {
	if s.Format != FormatVersion {
		return fmt.Errorf("%w: format %d, this binary reads %d", ErrSidecarFormat, s.Format, FormatVersion)
	}
	if !isDigest(s.Fingerprint) {
		return fmt.Errorf("%w: fingerprint %q is not a BLAKE3 hex digest", ErrCorruptSidecar, s.Fingerprint)
	}
	if !ValidGeneration(s.Generation) {
		return fmt.Errorf("%w: generation %q is not a generation name (decimal digits)", ErrCorruptSidecar, s.Generation)
	}
	for _, a := range s.Artifacts {
		if err := a.validate(); err != nil {
			return fmt.Errorf("%w: %w", ErrCorruptSidecar, err)
		}
	}
	return nil
}

// validate checks that a stays inside its base directory and carries a
// well-formed digest.
func (a Artifact) validate() error {
	if !fs.ValidPath(a.Path) || a.Path == "." {
		return fmt.Errorf("artifact path %q is not a clean relative path", a.Path)
	}
	if a.Size < 0 {
		return fmt.Errorf("artifact %s: negative size %d", a.Path, a.Size)
	}
	if !isDigest(a.BLAKE3) {
		return fmt.Errorf("artifact %s: digest %q is not a BLAKE3 hex digest", a.Path, a.BLAKE3)
	}
	return nil
}

// ValidGeneration reports whether name can be a generation directory name:
// 1 to 20 decimal digits, so a tampered sidecar cannot name a path outside
// index/ ("..", "/", ".") or a temporary file.
func ValidGeneration(name string) bool {
	if len(name) == 0 || len(name) > 20 {
		return false
	}
	for i := range len(name) {
		if name[i] < '0' || name[i] > '9' {
			return false
		}
	}
	return true
}

// isDigest reports whether s is 64 lowercase hex digits.
func isDigest(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := range len(s) {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
