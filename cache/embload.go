package cache

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// logState is what loading a log found.
type logState struct {
	headerOK bool
	nonce    uint64
	hdrLen   int64
	size     int64 // size of the log when it was loaded
	validEnd int64 // end of the last intact record found; what follows is a torn tail
	// idxClean is true when vectors.idx is an intact index of every record
	// found, so a writer may keep appending to it.
	idxClean bool
	tailN    int // entries in the index's unsorted tail
	index    entryIndex
}

// loadLog indexes the log open as f. It reads the header and the unsorted
// tail of vectors.idx, leaves its sorted region in the file for lookups to
// search (sortedRegion), and then scans only the log records the index does
// not cover (normally none), reading record headers but never payloads.
func loadLog(f *os.File, dir, identity string) (*logState, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	st := &logState{size: fi.Size(), index: newEntryIndex(nil, 0)}
	st.nonce, st.hdrLen, st.headerOK, err = readLogHeader(f, identity)
	if err != nil || !st.headerOK {
		return st, err
	}
	covered, clean, err := loadIdx(dir, st)
	if err != nil {
		return nil, err
	}
	w := &window{r: f, size: st.size}
	st.validEnd, err = scanLog(w, covered, &st.index)
	if err != nil {
		st.index.base.close()
		return nil, err
	}
	st.idxClean = clean && st.validEnd == covered
	return st, nil
}

// loadIdx loads vectors.idx into st.index and returns the end of the log
// region it covers. The sorted region is trusted as a whole (each entry is
// checked when used) and stays in the file, which st.index then owns; the
// tail is read and checked entry by entry and ends at the first that is
// torn, fails its checksum, or does not fit the log after the previous one.
// clean reports that no such entry was found.
func loadIdx(dir string, st *logState) (covered int64, clean bool, err error) {
	f, err := os.Open(filepath.Join(dir, idxName))
	if errors.Is(err, fs.ErrNotExist) {
		return st.hdrLen, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	owned := false
	defer func() {
		if !owned {
			_ = f.Close()
		}
	}()
	fi, err := f.Stat()
	if err != nil {
		return 0, false, err
	}
	hdr := make([]byte, idxHeaderLen)
	if err := readAtFull(f, hdr, 0); err != nil {
		return st.hdrLen, false, ignoreShort(err)
	}
	sortedLen, sortedEnd, ok := parseIdxHeader(hdr, fi.Size(), st.nonce)
	if !ok || sortedEnd < st.hdrLen || sortedEnd > st.size {
		return st.hdrLen, false, nil
	}
	tail, err := readRest(f, int64(idxHeaderLen+sortedLen), fi.Size())
	if err != nil {
		return 0, false, err
	}
	base := memRegion(nil)
	if sortedLen > 0 {
		base, owned = fileRegion(f, idxHeaderLen, sortedLen/idxEntryLen), true
	}
	st.index = newEntryIndex(base, len(tail)/idxEntryLen)
	clean = len(tail)%idxEntryLen == 0
	covered = sortedEnd
	for ; len(tail) >= idxEntryLen; tail = tail[idxEntryLen:] {
		h, e, ok := parseIdxEntry(tail[:idxEntryLen])
		if !ok || e.off < covered || e.off+recordLen(e.dims) > st.size {
			return covered, false, nil
		}
		st.index.addTail(h, e)
		st.tailN++
		covered = e.off + recordLen(e.dims)
	}
	return covered, clean, nil
}

// readRest reads f from off to size, or to its end if it is shorter now.
func readRest(f *os.File, off, size int64) ([]byte, error) {
	b := make([]byte, max(size-off, 0))
	n, err := f.ReadAt(b, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b[:n], nil
}

// ignoreShort drops errShort: a file shorter than its header holds nothing.
func ignoreShort(err error) error {
	if errors.Is(err, errShort) {
		return nil
	}
	return err
}

// scanLog adds every record found from off on to x and returns the end
// of the last one. A record whose header is intact but which runs past the
// end of the file is a torn tail: the scan stops there. A header that fails
// its checksum is skipped by resynchronizing on the next offset (in steps
// of 4 bytes, the record alignment) that holds a complete record passing
// both checksums; when none follows, the scan stops.
func scanLog(w *window, off int64, x *entryIndex) (int64, error) {
	for off+recHeaderLen <= w.size {
		b, err := w.at(off, recHeaderLen)
		if err != nil {
			return stopAt(off, err)
		}
		h, dims, ok := parseRecordHeader(b)
		if !ok {
			next, found, err := resync(w, off+4)
			if err != nil || !found {
				return stopAt(off, err)
			}
			off = next
			continue
		}
		n := recordLen(dims)
		if off+n > w.size {
			return off, nil
		}
		x.add(h, slot{off: off, dims: dims})
		off += n
	}
	return off, nil
}

// stopAt ends a scan at off. A short read means the file shrank under the
// scan (a writer truncating a torn tail): what was found so far stands.
func stopAt(off int64, err error) (int64, error) {
	if err == nil || errors.Is(err, errShort) {
		return off, nil
	}
	return 0, err
}

// resync finds the first offset at or after from, in steps of 4, where a
// complete and intact record starts.
func resync(w *window, from int64) (int64, bool, error) {
	for off := from; off+recHeaderLen <= w.size; off += 4 {
		b, err := w.at(off, recHeaderLen)
		if err != nil {
			return 0, false, err
		}
		_, dims, ok := parseRecordHeader(b)
		if !ok || off+recordLen(dims) > w.size {
			continue
		}
		rec, err := w.at(off, int(recordLen(dims)))
		if err != nil {
			return 0, false, err
		}
		if recordValid(rec) {
			return off, true, nil
		}
	}
	return 0, false, nil
}

// errShort reports a read past the end of the file.
var errShort = errors.New("short read")

// windowSize is how much of the log one read brings in while scanning: many
// small records, or the headers of about ten 1536-dimension ones.
const windowSize = 64 << 10

// window serves small reads of a file from a buffer refilled with ReadAt,
// so scanning headers costs about one system call per windowSize bytes and
// payloads larger than the window are skipped without being read.
type window struct {
	r    io.ReaderAt
	size int64
	off  int64
	buf  []byte
	mem  []byte
}

// at returns the n bytes at off; they are valid until the next call.
func (w *window) at(off int64, n int) ([]byte, error) {
	if off >= w.off && off+int64(n) <= w.off+int64(len(w.buf)) {
		return w.buf[off-w.off:][:n], nil
	}
	if off+int64(n) > w.size {
		return nil, errShort
	}
	want := int64(max(n, windowSize))
	want = min(want, w.size-off)
	if int64(cap(w.mem)) < want {
		w.mem = make([]byte, want)
	}
	got, err := w.r.ReadAt(w.mem[:want], off)
	if got < n {
		if err == nil || errors.Is(err, io.EOF) {
			err = errShort
		}
		return nil, err
	}
	w.off, w.buf = off, w.mem[:got]
	return w.buf[:n], nil
}
