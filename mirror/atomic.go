package mirror

import (
	"fmt"
	"os"

	"github.com/autorag/autorag/fingerprint"
)

// tempPrefix starts the name of every temporary file written here (the
// same prefix as fingerprint.WriteFileAtomic's). Store.GC removes such
// files; nothing ever reads them.
const tempPrefix = fingerprint.TempPrefix

// writeObject writes a store object: a temp file in its final directory,
// renamed into place. Neither the content nor the directory is fsynced
// here (see Store); the temp file is removed on error.
func writeObject(dir, path string, data []byte) (err error) {
	f, err := os.CreateTemp(dir, tempPrefix+"*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
