package fingerprint

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/zeebo/blake3"
)

// domain separates this encoding from any other BLAKE3 use and versions it:
// change it whenever the encoding below changes.
const domain = "autorag fingerprint v1"

const (
	// blockSize is the unit the BLAKE3 implementation hashes with SIMD;
	// the encoder hands it whole blocks so they are hashed in place.
	blockSize = 8 << 10
	// flushAt is the buffered size at which the encoder hands bytes over.
	flushAt = 4 * blockSize
	// segmentFiles is the number of files hashed together as one segment;
	// segments are hashed in parallel.
	segmentFiles = 2048
)

// FileHash is one mirrored source: its path relative to the root ('/'
// separators) and the BLAKE3 digest of its normalized text.
type FileHash struct {
	Path     string
	TextHash [32]byte
}

// Inputs is everything the fingerprint covers (DESIGN invariant 4).
type Inputs struct {
	SemanticsVersion int
	// Settings holds the parser names and versions, chunker and analyzer
	// settings and the embedder identity. Keys are hashed in sorted order,
	// so the map's iteration order does not matter.
	Settings map[string]string
	// Files should be sorted by Path (then TextHash). Compute checks the
	// order while hashing and, when it is wrong, hashes a sorted copy: the
	// result never depends on the order, and Files is never modified.
	// Sorted input is the fast path.
	Files []FileHash
}

//semguard:begin fingerprint

// Compute returns the fingerprint of in as 64 lowercase hex digits.
//
// The encoding is unambiguous: the domain string, the semantics version,
// the number of settings, each key and value, the number of files and each
// path are all length- or count-prefixed (unsigned varints), and each text
// hash is a fixed 32 bytes. The files are cut into segments of segmentFiles
// files; each segment's encoding is hashed on its own (in parallel) and the
// 32-byte segment digests follow the file count in the outer encoding. The
// file count fixes the number of segments, so this stays unambiguous.
func Compute(in Inputs) string {
	if sum, ok := compute(in, in.Files); ok {
		return sum
	}
	sorted := slices.Clone(in.Files)
	slices.SortFunc(sorted, compareFiles)
	sum, _ := compute(in, sorted)
	return sum
}

//semguard:end fingerprint

// compute hashes in with the given files, or reports false when the files
// are out of order. The order is checked while encoding, which touches each
// path once and keeps the common, sorted case fast.
func compute(in Inputs, files []FileHash) (string, bool) {
	digests, ok := hashSegments(files)
	if !ok {
		return "", false
	}
	e := newEncoder()
	e.str(domain)
	e.uint(uint64(int64(in.SemanticsVersion)))
	e.settings(in.Settings)
	e.uint(uint64(len(files)))
	for i := range digests {
		e.buf = append(e.buf, digests[i][:]...)
	}
	return hex.EncodeToString(e.finish()), true
}

// hashSegments returns the digest of each segment of files, using up to
// GOMAXPROCS goroutines, or false when files are not sorted.
func hashSegments(files []FileHash) ([][32]byte, bool) {
	n := (len(files) + segmentFiles - 1) / segmentFiles
	digests := make([][32]byte, n)
	var next atomic.Int64
	var unsorted atomic.Bool
	var wg sync.WaitGroup
	for range min(n, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			e := newEncoder() // reused for every segment this goroutine hashes
			for s := int(next.Add(1) - 1); s < n && !unsorted.Load(); s = int(next.Add(1) - 1) {
				if !e.segment(files, s, &digests[s]) {
					unsorted.Store(true)
				}
			}
		})
	}
	wg.Wait()
	return digests, !unsorted.Load()
}

// segment writes the digest of segment s of files to out, or reports
// false when that segment (including its boundary with the previous one) is
// not sorted. It starts from an empty encoding, whatever e held before.
func (e *encoder) segment(files []FileHash, s int, out *[32]byte) bool {
	lo, hi := s*segmentFiles, min((s+1)*segmentFiles, len(files))
	if lo > 0 && outOfOrder(&files[lo-1], &files[lo]) {
		return false
	}
	e.h.Reset()
	e.buf = e.buf[:0]
	if !e.files(files[lo:hi]) {
		return false
	}
	copy(out[:], e.finish())
	return true
}

// compareFiles orders files by path, then text hash, so duplicates of a path
// still hash deterministically.
func compareFiles(a, b FileHash) int {
	return cmpFiles(&a, &b)
}

func cmpFiles(a, b *FileHash) int {
	if c := strings.Compare(a.Path, b.Path); c != 0 {
		return c
	}
	return bytes.Compare(a.TextHash[:], b.TextHash[:])
}

// outOfOrder reports whether a must come after b.
func outOfOrder(a, b *FileHash) bool { return cmpFiles(a, b) > 0 }

// encoder buffers an encoding in front of a hasher.
type encoder struct {
	h   *blake3.Hasher
	buf []byte
}

func newEncoder() *encoder {
	return &encoder{h: blake3.New(), buf: make([]byte, 0, flushAt+1024)}
}

func (e *encoder) uint(v uint64) {
	e.buf = binary.AppendUvarint(e.buf, v)
}

func (e *encoder) str(s string) {
	e.uint(uint64(len(s)))
	e.buf = append(e.buf, s...)
	if len(e.buf) >= flushAt {
		e.flush()
	}
}

func (e *encoder) settings(m map[string]string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	e.uint(uint64(len(keys)))
	for _, k := range keys {
		e.str(k)
		e.str(m[k])
	}
}

// files encodes each file's path and text hash, reporting false as soon
// as two neighbours are out of order.
func (e *encoder) files(files []FileHash) bool {
	for i := range files {
		f := &files[i]
		if i > 0 && outOfOrder(&files[i-1], f) {
			return false
		}
		e.str(f.Path)
		e.buf = append(e.buf, f.TextHash[:]...)
	}
	return true
}

// flush hands whole blocks to the hasher and keeps the rest buffered.
func (e *encoder) flush() {
	n := len(e.buf) &^ (blockSize - 1)
	_, _ = e.h.Write(e.buf[:n])
	e.buf = e.buf[:copy(e.buf, e.buf[n:])]
}

// finish hands every buffered byte to the hasher and returns the digest.
func (e *encoder) finish() []byte {
	_, _ = e.h.Write(e.buf)
	e.buf = e.buf[:0]
	return e.h.Sum(nil)
}
