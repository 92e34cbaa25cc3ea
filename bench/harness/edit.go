package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// editor changes files in a scratch tree the way a person would: each edit
// rewrites the file as its original content plus a revision paragraph whose
// text differs on every edit, so no edit ever reproduces indexed content and
// files do not keep growing.
type editor struct {
	root      string
	seq       uint64
	originals map[string][]byte
}

func newEditor(root string) *editor {
	return &editor{root: root, originals: make(map[string][]byte)}
}

// edit rewrites the file at rel (relative to the root) in place.
func (e *editor) edit(rel string) error {
	path := filepath.Join(e.root, filepath.FromSlash(rel))
	orig, ok := e.originals[rel]
	if !ok {
		b, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("read %s: %w", rel, err)
		}
		orig = b
		e.originals[rel] = orig
	}
	e.seq++
	var b bytes.Buffer
	b.Write(orig)
	fmt.Fprintf(&b, "\n\nRevision %d. ", e.seq)
	writeSentence(&b, rand.New(rand.NewPCG(corpusSeed, e.seq)))
	b.WriteByte('\n')
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("edit %s: %w", rel, err)
	}
	return nil
}
