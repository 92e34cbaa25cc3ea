package agentconf

import (
	"context"
	"fmt"

	"github.com/autorag/autorag/internal/userfile"
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
// the package comment for the rules). The file is read, changed and
// written under its lock (internal/userfile), so installers at once never
// lose each other's entries: the first adds its entry, and a later one
// with a different entry is refused.
func Install(ctx context.Context, c Client, dir string, e Entry) (*Installed, error) {
	path, err := c.File(dir)
	if err != nil {
		return nil, err
	}
	o := userfile.Options{Perm: 0o644, DirPerm: 0o755, Backup: userfile.BackupEach}
	ed, err := userfile.Edit(ctx, path, o, func(old []byte) ([]byte, error) {
		out, unchanged, err := c.Add(old, e)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if unchanged {
			return old, nil
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	res := &Installed{Client: c.Name, File: path, Outcome: "unchanged", Backup: ed.Backup}
	if ed.Changed {
		res.Outcome = "installed"
	}
	return res, nil
}
