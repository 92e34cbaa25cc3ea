package vector

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"unsafe"

	"github.com/autorag/autorag/fingerprint"
)

// Entry is one vector to add. Vec should be L2-normalized; len(Vec) must equal
// the index dims and every component must be finite.
type Entry struct {
	ID  string
	Vec []float32
}

// Stats describes a built or opened index: live vectors, deleted rows its
// segments still hold, segment files, and the bytes of all its files
// (segments, hard links included, and the manifest).
type Stats struct {
	Vectors    int
	Tombstones int
	Segments   int
	Bytes      int64
}

const (
	// maxSegments caps the segment count; past it the newest segments merge.
	maxSegments = 8
	// compactTombstones: a full compaction runs when more than 1/compactTombstones
	// (20%) of all stored rows are tombstones.
	compactTombstones = 5
	// tailRatio: the newest segments merge while their live rows are at least
	// 1/tailRatio of the live rows of the segment before them, so segment sizes
	// fall geometrically and each vector is rewritten O(log n) times.
	tailRatio = 4
)

//semguard:begin vector-build

// Build writes the vector index of a new generation into dir, which must not
// exist (its parent must) or be empty, from base, the vector index dir of the
// previous generation ("" for a fresh build). Segments of base that survive
// are hard-linked; deletes become tombstones; adds go into a new segment.
// Deleting an ID that base does not hold is a no-op, so an edited chunk is a
// delete plus an add of the same ID. Adding an ID that stays live in base, or
// the same ID twice, is an error. Every written file and dir are fsynced;
// base is never modified.
func Build(dir, base string, dims int, deletes []string, adds []Entry) (Stats, error) {
	st, err := build(dir, base, dims, deletes, adds, false)
	if err != nil {
		return Stats{}, fmt.Errorf("build vector index %s: %w", dir, err)
	}
	return st, nil
}

// Compact writes the vector index of a new generation into dir (as Build)
// holding base's live vectors in one segment with no tombstones: what idle
// compaction does. A base that already is one segment without tombstones
// is hard-linked, not rewritten.
func Compact(dir, base string, dims int) (Stats, error) {
	st, err := build(dir, base, dims, nil, nil, true)
	if err != nil {
		return Stats{}, fmt.Errorf("compact vector index %s: %w", dir, err)
	}
	return st, nil
}

//semguard:end vector-build

// part is one input of the new generation: a base segment with its updated
// tombstones, or the adds.
type part struct {
	src  *segment // nil for the adds
	meta segMeta
}

func (p *part) live() int { return p.meta.live() }

func build(dir, base string, dims int, deletes []string, adds []Entry, full bool) (Stats, error) {
	if dims <= 0 {
		return Stats{}, fmt.Errorf("dims %d", dims)
	}
	if err := checkAdds(dims, adds); err != nil {
		return Stats{}, err
	}
	if err := prepareDir(dir); err != nil {
		return Stats{}, err
	}
	man := &manifest{dims: dims}
	var parts []part
	if base != "" {
		prev, err := Open(base, dims)
		if err != nil {
			return Stats{}, fmt.Errorf("base: %w", err)
		}
		defer prev.Close()
		man.nextSeq = prev.man.nextSeq
		if parts, err = applyChanges(prev, deletes, adds); err != nil {
			return Stats{}, err
		}
	}
	if len(adds) > 0 {
		parts = append(parts, part{meta: segMeta{count: uint64(len(adds))}})
	}
	parts = slices.DeleteFunc(parts, func(p part) bool { return p.live() == 0 })
	w := &genWriter{dir: dir, base: base, dims: dims, man: man, full: full}
	from := mergeFrom(parts)
	if full {
		from = 0
	}
	if err := w.write(parts, from, adds); err != nil {
		w.cleanup()
		return Stats{}, err
	}
	return w.man.stats(), nil
}

func checkAdds(dims int, adds []Entry) error {
	if len(adds) > math.MaxInt32 {
		return fmt.Errorf("%d adds exceed a segment's row limit", len(adds))
	}
	seen := make(map[string]struct{}, len(adds))
	for _, e := range adds {
		if len(e.Vec) != dims {
			return fmt.Errorf("vector %q has %d dims, want %d", e.ID, len(e.Vec), dims)
		}
		if !finite(e.Vec) {
			return fmt.Errorf("vector %q has a NaN or infinite component", e.ID)
		}
		if _, dup := seen[e.ID]; dup {
			return fmt.Errorf("vector %q added twice", e.ID)
		}
		seen[e.ID] = struct{}{}
	}
	return nil
}

// prepareDir creates dir, or accepts it if it exists and is empty.
func prepareDir(dir string) error {
	err := os.Mkdir(dir, fingerprint.DirPerm)
	if err == nil || !errors.Is(err, os.ErrExist) {
		return err
	}
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Readdirnames(1); err != io.EOF {
		if err == nil {
			return fmt.Errorf("%s is not empty", dir)
		}
		return err
	}
	return nil
}

// applyChanges turns base's segments into parts carrying the new tombstones
// and rejects adds whose ID stays live. Each delete costs one binary search
// per segment over the segment's ID-ordered row table.
func applyChanges(prev *Index, deletes []string, adds []Entry) ([]part, error) {
	parts := make([]part, len(prev.segs))
	for i, s := range prev.segs {
		parts[i] = part{src: s, meta: s.meta}
	}
	dead := make([][]uint32, len(parts))
	for _, id := range deletes {
		for i := range parts {
			if r, ok := parts[i].src.lookup(id); ok {
				dead[i] = append(dead[i], uint32(r))
			}
		}
	}
	for i, rows := range dead {
		if len(rows) > 0 {
			t := slices.Concat(parts[i].meta.tombs, rows) // a new slice: base's list is shared
			slices.Sort(t)
			parts[i].meta.tombs = slices.Compact(t)
		}
	}
	for _, e := range adds {
		for i := range parts {
			p := &parts[i]
			if r, ok := p.src.lookup(e.ID); ok {
				if _, dead := slices.BinarySearch(p.meta.tombs, uint32(r)); !dead {
					return nil, fmt.Errorf("vector %q added but already live (delete it in the same build to replace it)", e.ID)
				}
			}
		}
	}
	return parts, nil
}

// mergeFrom returns the index of the first part to merge into one new
// segment; parts before it are linked. len(parts)-1 means only the last part
// is written on its own (a new segment for adds, a link for a base segment).
func mergeFrom(parts []part) int {
	if len(parts) == 0 {
		return 0
	}
	rows, tombs := 0, 0
	for _, p := range parts {
		rows += int(p.meta.count)
		tombs += len(p.meta.tombs)
	}
	if tombs*compactTombstones > rows {
		return 0
	}
	j := len(parts) - 1
	tail := parts[j].live()
	for j > 0 && tail*tailRatio >= parts[j-1].live() {
		j--
		tail += parts[j].live()
	}
	return min(j, maxSegments-1)
}

// genWriter writes the files of one generation and remembers them for cleanup.
type genWriter struct {
	dir, base string
	dims      int
	man       *manifest
	full      bool // drop every tombstone: a lone base segment with some is rewritten
	created   []string
}

func (w *genWriter) write(parts []part, from int, adds []Entry) error {
	for _, p := range parts[:from] {
		if err := w.link(p.meta); err != nil {
			return err
		}
	}
	if tail := parts[from:]; len(tail) == 1 && tail[0].src != nil && (!w.full || len(tail[0].meta.tombs) == 0) {
		if err := w.link(tail[0].meta); err != nil {
			return err
		}
	} else if len(tail) > 0 {
		if err := w.merge(tail, adds); err != nil {
			return err
		}
	}
	path := filepath.Join(w.dir, manifestName)
	if err := writeFileSync(path, w.man.encode()); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	w.created = append(w.created, path)
	if err := fingerprint.SyncDir(w.dir); err != nil {
		return fmt.Errorf("sync dir: %w", err)
	}
	return nil
}

// link hard-links a base segment, falling back to a copy across file systems.
func (w *genWriter) link(m segMeta) error {
	name := segName(m.seq)
	src, dst := filepath.Join(w.base, name), filepath.Join(w.dir, name)
	err := os.Link(src, dst)
	if errors.Is(err, syscall.EXDEV) {
		err = copyFileSync(src, dst)
	}
	if err != nil {
		return fmt.Errorf("link segment: %w", err)
	}
	w.created = append(w.created, dst)
	w.man.segs = append(w.man.segs, m)
	return nil
}

// merge writes the live rows of parts (in order) into one new segment.
func (w *genWriter) merge(parts []part, adds []Entry) error {
	n := 0
	for _, p := range parts {
		n += p.live()
	}
	if n > math.MaxInt32 {
		return fmt.Errorf("%d rows exceed a segment's row limit", n)
	}
	rows := make([]row, 0, n)
	for _, p := range parts {
		if p.src == nil {
			for _, e := range adds {
				rows = append(rows, row{id: e.ID, vec: e.Vec})
			}
			continue
		}
		tombs := p.meta.tombs
		for r := range p.src.count {
			if len(tombs) > 0 && int(tombs[0]) == r {
				tombs = tombs[1:]
				continue
			}
			id := p.src.id(r) // aliases base's mapping, which outlives this write
			rows = append(rows, row{id: unsafe.String(unsafe.SliceData(id), len(id)), vec: p.src.vec(r)})
		}
	}
	seq := w.man.nextSeq
	w.man.nextSeq++
	m, err := writeSegment(w.dir, seq, w.dims, rows)
	if err != nil {
		return err
	}
	w.created = append(w.created, filepath.Join(w.dir, segName(seq)))
	w.man.segs = append(w.man.segs, m)
	return nil
}

func (w *genWriter) cleanup() {
	for _, p := range w.created {
		os.Remove(p)
	}
}

func copyFileSync(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fingerprint.FilePerm)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(dst)
	}
	return err
}
