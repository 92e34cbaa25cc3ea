package eval

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/autorag/autorag/fingerprint"
)

// Materialize writes every document of ds into dir as one file named after
// its id (escaped, see FileName) with extension ext, and returns the map
// from a file's path (relative to dir) back to the document id. A file that
// already holds the right bytes is left alone, so a second evaluation in
// the same workspace refreshes nothing.
//
// The workspace is handled as hostile: dir must be a real directory (not a
// symlink), no symlink inside it is followed (a link where a document goes
// is replaced, its target untouched), and only files Materialize wrote are
// ever removed: their names are kept in dir's ledger (dir + ".files"),
// written before the files. An entry it did not write is an error, found
// before anything is written or removed.
//
// A document with a title is written as "# title\n\ntext\n" (the title
// becomes the chunk's heading); one without, as its text.
func Materialize(ds *Dataset, dir, ext string) (map[string]string, error) {
	paths, err := docFiles(ds, ext)
	if err != nil {
		return nil, err
	}
	if err := ensureDir(dir, 0o700); err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	ledger := dir + ".files"
	wrote, err := readLedger(ledger)
	if err != nil {
		return nil, err
	}
	stale, err := foreignOrStale(r, dir, paths, wrote)
	if err != nil {
		return nil, err
	}
	if err := writeLedger(ledger, union(wrote, paths)); err != nil {
		return nil, err
	}
	for _, d := range ds.Docs {
		if err := writeDoc(r, FileName(d.ID)+ext, docBody(d)); err != nil {
			return nil, err
		}
	}
	for _, name := range stale {
		if err := r.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	return paths, writeLedger(ledger, keys(paths))
}

// docFiles maps each document's file name to its id.
func docFiles(ds *Dataset, ext string) (map[string]string, error) {
	paths := make(map[string]string, len(ds.Docs))
	for _, d := range ds.Docs {
		name := FileName(d.ID) + ext
		if _, dup := paths[name]; dup {
			return nil, fmt.Errorf("document id %q appears twice", d.ID)
		}
		paths[name] = d.ID
	}
	return paths, nil
}

func docBody(d Doc) []byte {
	if d.Title != "" {
		return []byte("# " + d.Title + "\n\n" + d.Text + "\n")
	}
	return []byte(d.Text + "\n")
}

// foreignOrStale lists dir: an entry Materialize did not write (but the
// index directory) is an error; it returns the written ones no document
// needs any more.
func foreignOrStale(r *os.Root, dir string, paths map[string]string, wrote map[string]bool) ([]string, error) {
	f, err := r.Open(".")
	if err != nil {
		return nil, err
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var stale []string
	for _, n := range names {
		switch {
		case n == ".autorag":
		case !wrote[n]:
			return nil, fmt.Errorf("workspace %s holds %s, which autorag eval did not write: remove it or choose another --work", dir, n)
		case paths[n] == "":
			stale = append(stale, n)
		}
	}
	return stale, nil
}

// writeDoc writes body as name inside r unless a regular file there holds
// it already; anything else of that name (a symlink, say) is removed, not
// followed.
func writeDoc(r *os.Root, name string, body []byte) error {
	fi, err := r.Lstat(name)
	switch {
	case err == nil && fi.Mode().IsRegular():
		if old, err := readRooted(r, name); err == nil && bytes.Equal(old, body) {
			return nil
		}
	case err == nil:
		if err := r.Remove(name); err != nil {
			return err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	f, err := r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|noFollow, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func readRooted(r *os.Root, name string) ([]byte, error) {
	f, err := r.OpenFile(name, os.O_RDONLY|noFollow|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// ensureDir creates dir (mode perm) or checks that it is a directory and
// not a symlink.
func ensureDir(dir string, perm os.FileMode) error {
	err := os.Mkdir(dir, perm)
	if err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("workspace %s is not a directory (%s): not followed", dir, fi.Mode().Type())
	}
	return nil
}

// readLedger reads the names Materialize wrote (none when there is no
// ledger yet).
func readLedger(path string) (map[string]bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, err
	}
	m := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if n := sc.Text(); n != "" && !strings.ContainsAny(n, "/\\") && n != "." && n != ".." {
			m[n] = true
		}
	}
	return m, sc.Err()
}

// writeLedger replaces the ledger with names (fingerprint's atomic write:
// a crash leaves the old ledger or the new one).
func writeLedger(path string, names []string) error {
	slices.Sort(names)
	return fingerprint.WriteFileAtomic(path, []byte(strings.Join(names, "\n")+"\n"), fingerprint.FilePerm)
}

func union(a map[string]bool, b map[string]string) []string {
	out := keys(b)
	for n := range a {
		if _, ok := b[n]; !ok {
			out = append(out, n)
		}
	}
	return out
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// PrivateDir returns dir after creating it with mode 0700, or after
// checking that the existing one is a directory (not a symlink), owned by
// this user and closed to others: the only kind of directory in a shared
// place (the temporary directory) in which a workspace may go, since
// anyone who can write there could plant links for eval to follow.
func PrivateDir(dir string) (string, error) {
	if err := ensureDir(dir, 0o700); err != nil {
		return "", err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	if err := ownedPrivate(fi); err != nil {
		return "", fmt.Errorf("workspace directory %s: %w (remove it, or pass --work)", dir, err)
	}
	return dir, nil
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
