package agentconf

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/autorag/autorag/fingerprint"
)

// Installed says what Install did.
type Installed struct {
	Client string `json:"client"`
	File   string `json:"file"`
	// Outcome is "installed" (written), or "unchanged" (the same entry was
	// there already).
	Outcome string `json:"outcome"`
	Backup  string `json:"backup,omitempty"` // the copy of the old file
}

// Install adds e to client c's configuration for the project in dir (see
// the package comment for the rules).
func Install(c Client, dir string, e Entry) (*Installed, error) {
	path, err := c.File(dir)
	if err != nil {
		return nil, err
	}
	content, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	exists := err == nil
	out, unchanged, err := c.Add(content, e)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	res := &Installed{Client: c.Name, File: path, Outcome: "unchanged"}
	if unchanged {
		return res, nil
	}
	perm := os.FileMode(0o644)
	if exists {
		if fi, err := os.Stat(path); err == nil {
			perm = fi.Mode().Perm()
		}
		if res.Backup, err = backup(path, content, perm); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := fingerprint.WriteFileAtomic(path, out, perm); err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	res.Outcome = "installed"
	return res, nil
}

// backup copies content beside path, as path.bak (path.bak.2, ... when
// taken); it never replaces a file.
func backup(path string, content []byte, perm os.FileMode) (string, error) {
	for i := 1; ; i++ {
		name := path + ".bak"
		if i > 1 {
			name = fmt.Sprintf("%s.bak.%d", path, i)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("backup of %s: %w", path, err)
		}
		_, err = f.Write(content)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", fmt.Errorf("backup of %s: %w", path, err)
		}
		return name, nil
	}
}
