package models

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/autorag/autorag/fingerprint"
)

// hashes counts the files hashed to verify an installed model (tests use
// it to see that an intact file is not hashed again).
var hashes atomic.Int64

// identity is what tells one state of a file from another even when its
// size and modification time are put back (a copy with -p, a tool that
// restores times): the device and inode, and the change time, which no
// user call can set. Zero where the system does not say.
type identity struct {
	Dev     uint64 `json:"dev,omitempty"`
	Ino     uint64 `json:"ino,omitempty"`
	CtimeNs int64  `json:"ctime_ns,omitempty"`
}

func (id identity) known() bool { return id.Ino != 0 && id.CtimeNs != 0 }

// damagedError is an installed file whose content is no longer the
// catalog's although its size and modification time are.
type damagedError struct {
	file, sum, want string
}

func (e *damagedError) Error() string {
	return fmt.Sprintf("%s has sha256 %s, not the catalog's %s: it was damaged after it was installed", e.file, e.sum, e.want)
}

// check says whether file f is installed as recorded and intact: the
// stamp names it with the catalog's sha256, it has the recorded size and
// modification time, and either it is the very file verified before (same
// identity) or its sha256 is the catalog's now. A file verified now has
// its identity recorded in st (st.fresh), so it is hashed once per
// identity, not at every load.
func (st *stamp) check(md string, f File) error {
	rec, ok := st.Files[f.Name]
	if !ok || rec.SHA256 != f.SHA256 {
		return fmt.Errorf("%s not installed", f.Name)
	}
	path := filepath.Join(md, f.Name)
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("%s: %w", f.Name, err)
	}
	if fi.Size() != rec.Size || fi.ModTime().UnixNano() != rec.MtimeNs {
		return fmt.Errorf("%s changed since it was installed", f.Name)
	}
	id := identityOf(fi)
	if id.known() && id == rec.identity {
		return nil
	}
	hashes.Add(1)
	sum, n, err := hashFile(path)
	if err != nil {
		return err
	}
	if n != f.Size || sum != f.SHA256 {
		return &damagedError{file: f.Name, sum: sum, want: f.SHA256}
	}
	if id.known() {
		rec.identity = id
		st.Files[f.Name] = rec
		st.fresh = append(st.fresh, f.Name)
	}
	return nil
}

// remember records the identities st verified, when the model's lock is
// free at once: best effort (a read-only cache, or a pull under way, just
// means hashing again next time).
func (st *stamp) remember(md string) {
	if len(st.fresh) == 0 {
		return
	}
	release := tryLockModel(md)
	if release == nil {
		return
	}
	defer release()
	st.merge(md)
}

// merge writes the identities st verified into the stamp, read again (the
// caller holds the model's lock): only files still recorded as they were
// are updated.
func (st *stamp) merge(md string) {
	cur, err := readStamp(md)
	if err != nil {
		return
	}
	for _, name := range st.fresh {
		mine, theirs := st.Files[name], cur.Files[name]
		if theirs.Size == mine.Size && theirs.MtimeNs == mine.MtimeNs && theirs.SHA256 == mine.SHA256 {
			cur.Files[name] = mine
		}
	}
	_ = cur.write(md)
	st.fresh = nil
}

// write replaces the stamp of md.
func (st *stamp) write(md string) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return fingerprint.WriteFileAtomic(filepath.Join(md, stampName), b, 0o644)
}
