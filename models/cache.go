package models

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/autorag/autorag/fingerprint"
)

// stampName is the file of a model's directory that records what was
// verified; it is written after the files it names.
const stampName = "installed.json"

// Dir is the user's model cache.
func Dir() (string, error) {
	if d := os.Getenv("AUTORAG_MODELS_DIR"); d != "" {
		return d, nil
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("model cache: %w (set AUTORAG_MODELS_DIR)", err)
	}
	return filepath.Join(c, "autorag", "models"), nil
}

type stampFile struct {
	Size    int64  `json:"size"`
	MtimeNs int64  `json:"mtime_ns"`
	SHA256  string `json:"sha256"`
	// identity is the file's as its sha256 was last verified.
	identity
}

type stamp struct {
	Model    string               `json:"model"`
	Revision string               `json:"revision"`
	Files    map[string]stampFile `json:"files"`
	fresh    []string             // files verified by hashing since read
}

// ErrNotInstalled is returned (wrapped) by Open for a model whose files are
// not all in the cache.
var ErrNotInstalled = errors.New("model not installed")

// Installed is a model present in the cache.
type Installed struct {
	Model
	Dir string
}

// Path is where the named file of the model is.
func (i Installed) Path(name string) string { return filepath.Join(i.Dir, name) }

// Open returns the model if every one of its files is installed in dir
// and intact (see stamp.check: a file is hashed once per identity);
// otherwise an error wrapping ErrNotInstalled that names the model and
// says which file is missing, changed or damaged.
func Open(dir string, m Model) (Installed, error) {
	md := filepath.Join(dir, m.Name)
	st, err := readStamp(md)
	if err != nil {
		return Installed{}, err
	}
	defer st.remember(md)
	for _, f := range m.Files {
		if err := st.check(md, f); err != nil {
			return Installed{}, fmt.Errorf("%w: %s: %v", ErrNotInstalled, m.Name, err)
		}
	}
	return Installed{Model: m, Dir: md}, nil
}

func readStamp(md string) (*stamp, error) {
	st := &stamp{Files: map[string]stampFile{}}
	b, err := os.ReadFile(filepath.Join(md, stampName))
	if errors.Is(err, os.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", stampName, err)
	}
	if err := json.Unmarshal(b, st); err != nil {
		return nil, fmt.Errorf("read %s in %s: %w", stampName, md, err)
	}
	if st.Files == nil {
		st.Files = map[string]stampFile{}
	}
	return st, nil
}

// install moves the verified file tmp into place as f of model m and
// records it in the stamp. The caller holds the model's lock.
func install(dir string, m Model, f File, tmp string) error {
	md := filepath.Join(dir, m.Name)
	dst := filepath.Join(md, f.Name)
	if err := fingerprint.CommitFile(tmp, dst); err != nil {
		return fmt.Errorf("install %s: %w", f.Name, err)
	}
	fi, err := os.Stat(dst)
	if err != nil {
		return fmt.Errorf("install %s: %w", f.Name, err)
	}
	st, err := readStamp(md)
	if err != nil {
		return err
	}
	st.Model, st.Revision = m.Name, m.Revision
	st.Files[f.Name] = stampFile{Size: fi.Size(), MtimeNs: fi.ModTime().UnixNano(), SHA256: f.SHA256, identity: identityOf(fi)}
	return st.write(md)
}

// copyVerified copies r into the partial file of f in md (as a pull
// leaves it) and checks its size and sha256 against f; it returns the
// partial file's path, or an error with nothing left behind. install
// commits it.
func copyVerified(md string, f File, r io.Reader) (string, error) {
	if err := os.MkdirAll(md, 0o755); err != nil {
		return "", fmt.Errorf("model cache: %w", err)
	}
	tmp, err := os.OpenFile(filepath.Join(md, f.Name+".part"), os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return "", fmt.Errorf("model cache: %w", err)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), r)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = verify(f, n, hex.EncodeToString(h.Sum(nil)))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

// verify compares what arrived with the catalog.
func verify(f File, size int64, sum string) error {
	if size != f.Size || sum != f.SHA256 {
		return &mismatchError{file: f.Name, size: size, sum: sum, want: f}
	}
	return nil
}

// mismatchError is a file whose content is not the catalog's.
type mismatchError struct {
	file string
	size int64
	sum  string
	want File
}

func (e *mismatchError) Error() string {
	return fmt.Sprintf("%s: got %d bytes with sha256 %s, want %d bytes with sha256 %s", e.file, e.size, e.sum, e.want.Size, e.want.SHA256)
}

// IsMismatch says whether err is a file whose size or sha256 is not the
// catalog's.
func IsMismatch(err error) bool {
	var m *mismatchError
	return errors.As(err, &m)
}
