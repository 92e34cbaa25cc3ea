package fingerprint

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/zeebo/blake3"
)

// ErrMismatch reports that an artifact on disk is not the one the sidecar
// recorded: missing, not a regular file, or of another size. Check wraps it.
var ErrMismatch = errors.New("artifact does not match the sidecar")

//semguard:begin artifact-hash

// HashFile returns the lowercase hex BLAKE3-256 digest of the file at path
// and the number of bytes read, streaming the content.
func HashFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, fmt.Errorf("hash file: %w", err)
	}
	defer f.Close()
	h := blake3.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", n, fmt.Errorf("hash file %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

//semguard:end artifact-hash

// Check is the cheap test of a no-op refresh: every artifact exists under
// base as a regular file of its recorded size. It reads no content. It
// returns nil, or an error naming the first mismatch (wrapping ErrMismatch)
// or the first I/O failure.
func Check(base string, arts []Artifact) error {
	for _, a := range arts {
		if _, err := checkOne(base, a); err != nil {
			return err
		}
	}
	return nil
}

// checkOne is Check of one artifact; it returns the file's FileInfo.
func checkOne(base string, a Artifact) (fs.FileInfo, error) {
	if err := a.validate(); err != nil {
		return nil, fmt.Errorf("check artifacts: %w", err)
	}
	fi, reason, err := statProblem(base, a)
	if err != nil {
		return nil, fmt.Errorf("check artifact: %w", err)
	}
	if reason != "" {
		return nil, fmt.Errorf("artifact %s: %s: %w", a.Path, reason, ErrMismatch)
	}
	return fi, nil
}

// Settled is the test that lets a no-op refresh trust the committed
// generation without opening it: Check's, and moreover every artifact has
// the modification time Describe recorded, older than the sidecar's at
// sidecarPath. Content rewritten after the commit has a newer mtime,
// whatever the timestamp granularity, since the kernel stamped the sidecar
// later than every recorded artifact time (WriteSidecar waits for that,
// settleAfter): the file clock had left their ticks. An artifact as new as
// the sidecar (one WriteSidecar could not settle in time), or recorded
// without an mtime, is not settled. It returns Check's error, and settled
// only when that is nil.
func Settled(base string, arts []Artifact, sidecarPath string) (settled bool, err error) {
	var before int64
	if sc, err := os.Lstat(sidecarPath); err == nil {
		before = sc.ModTime().UnixNano()
	}
	settled = before != 0
	for _, a := range arts {
		fi, err := checkOne(base, a)
		if err != nil {
			return false, err
		}
		if a.MtimeNS == 0 || fi.ModTime().UnixNano() != a.MtimeNS || a.MtimeNS >= before {
			settled = false
		}
	}
	return settled, nil
}

// Unchanged is the check a long-running reader makes of the generation it
// has open: every artifact is Check's, and one recorded with an mtime still
// has it (a generation is never written after its commit, so a new mtime
// means its bytes were rewritten under the reader). It reads no content.
func Unchanged(base string, arts []Artifact) bool {
	for _, a := range arts {
		fi, err := checkOne(base, a)
		if err != nil || a.MtimeNS != 0 && fi.ModTime().UnixNano() != a.MtimeNS {
			return false
		}
	}
	return true
}

// Problem is one artifact that failed verification.
type Problem struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Verify recomputes the BLAKE3 digest of every artifact under base and
// returns one Problem per artifact that is missing, not a regular file, of
// another size or of another digest, in the order of arts. The error is for
// failures that say nothing about the artifact itself (an invalid artifact
// path, permission denied, an I/O error); Verify stops at the first one.
func Verify(base string, arts []Artifact) ([]Problem, error) {
	var problems []Problem
	for _, a := range arts {
		if err := a.validate(); err != nil {
			return problems, fmt.Errorf("verify artifacts: %w", err)
		}
		reason, err := verifyOne(base, a)
		if err != nil {
			return problems, fmt.Errorf("verify artifact: %w", err)
		}
		if reason != "" {
			problems = append(problems, Problem{Path: a.Path, Reason: reason})
		}
	}
	return problems, nil
}

// verifyOne returns why a is bad, or "" when it matches.
func verifyOne(base string, a Artifact) (string, error) {
	_, reason, err := statProblem(base, a)
	if reason != "" || err != nil {
		return reason, err
	}
	sum, n, err := HashFile(filepath.Join(base, filepath.FromSlash(a.Path)))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "missing", nil
	case err != nil:
		return "", err
	case n != a.Size:
		return fmt.Sprintf("size %d, want %d", n, a.Size), nil
	case sum != a.BLAKE3:
		return fmt.Sprintf("blake3 %s, want %s", sum, a.BLAKE3), nil
	}
	return "", nil
}

// statProblem returns why a's file under base does not have a's recorded
// shape (missing, not regular, other size), or "" when it does.
func statProblem(base string, a Artifact) (fs.FileInfo, string, error) {
	fi, err := os.Lstat(filepath.Join(base, filepath.FromSlash(a.Path)))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, "missing", nil
	case err != nil:
		return nil, "", err
	case !fi.Mode().IsRegular():
		return nil, fmt.Sprintf("not a regular file (%s)", fi.Mode().Type()), nil
	case fi.Size() != a.Size:
		return nil, fmt.Sprintf("size %d, want %d", fi.Size(), a.Size), nil
	}
	return fi, "", nil
}

// Reuse lets Describe skip hashing files carried over from the previous
// generation. The engine hard-links immutable files (bleve segments, for
// instance) from the previous generation directory into the next one, so
// such a file has a different path but is the very same inode.
type Reuse struct {
	// Dir is the previous generation directory relative to the base
	// directory, '/' separators, e.g. "index/000000012".
	Dir string
	// Artifacts are the previous sidecar's artifacts.
	Artifacts []Artifact
}

//semguard:begin artifact-describe

// Describe returns an Artifact for every regular file under base/rel
// (recursively), sorted by path, with paths relative to base and '/'
// separators. Anything under rel that is neither a directory nor a regular
// file (a symlink, a fifo) is an error: a generation holds only files the
// engine wrote.
//
// When reuse is not nil, a file at rel/P is not hashed if reuse.Artifacts
// holds reuse.Dir/P with the same size and base/reuse.Dir/P is the same file
// (same device and inode, see os.SameFile): its recorded digest is copied.
// Files are immutable once committed, so identity and size vouch for the
// content. Everything else is hashed.
func Describe(base, rel string, reuse *Reuse) ([]Artifact, error) {
	if !fs.ValidPath(rel) {
		return nil, fmt.Errorf("describe %q: not a clean relative path", rel)
	}
	d := describer{base: base, rel: rel, root: filepath.Join(base, filepath.FromSlash(rel))}
	if reuse != nil {
		d.prevDir, d.prev = reuse.Dir, reuse.index()
	}
	if err := filepath.WalkDir(d.root, d.visit); err != nil {
		return nil, fmt.Errorf("describe %s: %w", rel, err)
	}
	slices.SortFunc(d.arts, func(a, b Artifact) int { return strings.Compare(a.Path, b.Path) })
	return d.arts, nil
}

//semguard:end artifact-describe

// index maps the previous artifacts by path.
func (r *Reuse) index() map[string]Artifact {
	m := make(map[string]Artifact, len(r.Artifacts))
	for _, a := range r.Artifacts {
		m[a.Path] = a
	}
	return m
}

// describer collects the artifacts of one Describe call.
type describer struct {
	base    string
	rel     string
	root    string              // base/rel
	prevDir string              // Reuse.Dir
	prev    map[string]Artifact // Reuse.Artifacts by path; nil without reuse
	arts    []Artifact
}

func (d *describer) visit(p string, e fs.DirEntry, err error) error {
	if err != nil {
		return err
	}
	if e.IsDir() {
		return nil
	}
	if !e.Type().IsRegular() {
		return fmt.Errorf("%s: not a regular file (%s)", p, e.Type())
	}
	inRel, err := filepath.Rel(d.root, p)
	if err != nil {
		return err
	}
	a, err := d.describe(p, filepath.ToSlash(inRel))
	if err != nil {
		return err
	}
	d.arts = append(d.arts, a)
	return nil
}

// describe returns the artifact for the file at full path p, which is
// inRel below the described directory.
func (d *describer) describe(p, inRel string) (Artifact, error) {
	name := path.Join(d.rel, inRel)
	fi, err := os.Lstat(p)
	if err != nil {
		return Artifact{}, err
	}
	if digest, size, ok := d.reused(p, inRel, fi); ok {
		return Artifact{Path: name, Size: size, BLAKE3: digest, MtimeNS: fi.ModTime().UnixNano()}, nil
	}
	sum, n, err := HashFile(p)
	if err != nil {
		return Artifact{}, err
	}
	a := Artifact{Path: name, Size: n, BLAKE3: sum}
	// The mtime vouches for the content only if the file was not written
	// while it was hashed.
	if after, err := os.Lstat(p); err == nil && n == fi.Size() && sameVersion(fi, after) {
		a.MtimeNS = fi.ModTime().UnixNano()
	}
	return a, nil
}

// sameVersion reports the same file with the same size and mtime.
func sameVersion(a, b fs.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// reused returns the previous digest and the size of the file at full path
// p, which is inRel below the described directory, when the previous
// generation holds the same inode at the same relative path with the same
// recorded size. p is stat'ed only when the previous artifacts list that
// relative path.
func (d *describer) reused(p, inRel string, fi fs.FileInfo) (string, int64, bool) {
	if d.prev == nil {
		return "", 0, false
	}
	prevPath := path.Join(d.prevDir, inRel)
	prev, ok := d.prev[prevPath]
	if !ok || !isDigest(prev.BLAKE3) {
		return "", 0, false
	}
	if fi.Size() != prev.Size {
		return "", 0, false
	}
	prevFi, err := os.Lstat(filepath.Join(d.base, filepath.FromSlash(prevPath)))
	if err != nil || !os.SameFile(fi, prevFi) {
		return "", 0, false
	}
	return prev.BLAKE3, fi.Size(), true
}
