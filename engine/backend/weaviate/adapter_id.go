package weaviate

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/fingerprint"
)

// weaviateIDFile holds the random id of this root's Weaviate index, made
// with the index and new after index reset. The alias and collections are
// named by it, not by the root's path: two machines indexing /workspace
// into one cluster get two indexes, and a root whose .autorag was removed
// builds a new index beside the orphan instead of adopting (or tripping
// over) collections it did not make.
const IDFile = "weaviate.id"

// aliasPrefix starts every alias (and so every collection) autorag makes.
const aliasPrefix = "Autorag_"

func (env Env) idPath() string { return filepath.Join(env.Dir, IDFile) }

// IndexAlias is the alias of this root's index: from the id file; else
// from the committed generation's record (an index made before ids
// existed, named by the hash of the root's path: it is this root's own,
// since this root recorded it); else a new id, written for the refresh
// about to make the index (only a writer gets here: a reader with no
// committed sidecar stops at ErrNoIndex first).
func IndexAlias(env Env, sc *fingerprint.Sidecar) (string, error) {
	b, err := os.ReadFile(env.idPath())
	if err == nil {
		id := strings.TrimSpace(string(b))
		if !validID(id) {
			return "", fmt.Errorf("%s holds %q, not an index id (remove it only together with the index: autorag index reset)", env.idPath(), id)
		}
		return aliasPrefix + id, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("read the weaviate index id: %w", err)
	}
	if sc != nil && backend.NameOf(sc) == backend.Weaviate {
		s := &weaviateStorage{env: env}
		if r, err := s.record(sc.Generation); err == nil && strings.HasPrefix(r.Alias, aliasPrefix) {
			return r.Alias, nil
		}
	}
	id := make([]byte, 8)
	if _, err := rand.Read(id); err != nil {
		return "", err
	}
	if err := os.MkdirAll(env.Dir, fingerprint.DirPerm); err != nil {
		return "", err
	}
	if err := fingerprint.WriteFileAtomic(env.idPath(), []byte(hex.EncodeToString(id)+"\n"), fingerprint.FilePerm); err != nil {
		return "", fmt.Errorf("write the weaviate index id: %w", err)
	}
	return aliasPrefix + hex.EncodeToString(id), nil
}

// validID accepts the hex ids IndexAlias makes and the path hashes of
// indexes made before them.
func validID(id string) bool {
	if len(id) != 16 {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil
}

// forgetID removes the id after its index was dropped: the next refresh
// makes a new index under a new id.
func forgetID(env Env) error {
	if err := os.Remove(env.idPath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
