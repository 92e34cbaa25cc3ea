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
	prefix, err := env.prefix()
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(env.idPath())
	if err == nil {
		id := strings.TrimSpace(string(b))
		if !validID(id) {
			return "", fmt.Errorf("%s holds %q, not an index id (remove it only together with the index: autorag index reset)", env.idPath(), id)
		}
		return prefix + id, nil
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
	if err := fingerprint.MkdirAll(env.Dir); err != nil { // never the root, if it was deleted
		return "", err
	}
	if err := fingerprint.WriteFileAtomic(env.idPath(), []byte(hex.EncodeToString(id)+"\n"), fingerprint.FilePerm); err != nil {
		return "", fmt.Errorf("write the weaviate index id: %w", err)
	}
	return prefix + hex.EncodeToString(id), nil
}

// prefix starts every name of this index: Autorag_, or with a namespace
// Autorag_<namespace>_ (a role scoped to that prefix confines a user's key
// to their own indexes: docs/WEAVIATE.md).
func (env Env) prefix() (string, error) {
	if env.Namespace == "" {
		return aliasPrefix, nil
	}
	if !validNamespace(env.Namespace) {
		return "", backend.Usagef("weaviate namespace %q: want 1 to 32 letters and digits, not 16 hex digits", env.Namespace)
	}
	return aliasPrefix + env.Namespace + "_", nil
}

// validNamespace accepts 1 to 32 ASCII letters and digits that cannot be
// read as an index id (so that a collection's name parses one way).
func validNamespace(ns string) bool {
	if len(ns) == 0 || len(ns) > 32 || validID(ns) {
		return false
	}
	for _, c := range ns {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
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
