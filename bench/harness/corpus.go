package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// generatorVersion is written to each cached corpus's stamp file. Bump it
// whenever the output of the generator changes, so stale caches are rebuilt.
const generatorVersion = "autorag-bench-corpus/1"

// corpusSeed fixes every generated corpus: the same size always yields the
// same bytes.
const corpusSeed uint64 = 20241129

const (
	paragraphsPerDoc = 40
	plantedPrefix    = "zorblax"
)

// plantedTerm is a rare word that occurs in exactly two documents, so that a
// query for it is selective.
type plantedTerm struct {
	Term string
	Docs [2]int
}

// genCorpus describes one generated corpus. Documents are produced on demand
// from (seed, index), so any document can be regenerated without the others.
type genCorpus struct {
	Size     int
	Seed     uint64
	Planted  []plantedTerm
	docTerms map[int][]string
}

// newGenCorpus plans a corpus of size documents: which rare terms go where.
// There are size/50 planted terms (at least 4), each in two distinct documents.
func newGenCorpus(size int, seed uint64) *genCorpus {
	if size < 2 {
		panic("bench: a generated corpus needs at least two documents")
	}
	c := &genCorpus{Size: size, Seed: seed, docTerms: make(map[int][]string)}
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	n := max(4, size/50)
	for t := range n {
		a := r.IntN(size)
		b := r.IntN(size - 1)
		if b >= a {
			b++
		}
		term := fmt.Sprintf("%s%05d", plantedPrefix, t)
		c.Planted = append(c.Planted, plantedTerm{Term: term, Docs: [2]int{a, b}})
		c.docTerms[a] = append(c.docTerms[a], term)
		c.docTerms[b] = append(c.docTerms[b], term)
	}
	return c
}

// DocName returns the file name of document i.
func (c *genCorpus) DocName(i int) string { return fmt.Sprintf("doc-%05d.md", i) }

// Doc returns the content of document i: a heading and 40 paragraphs of
// sentences drawn from the vocabulary, with the document's planted terms each
// added as one sentence in a chosen paragraph.
func (c *genCorpus) Doc(i int) []byte {
	r := rand.New(rand.NewPCG(c.Seed, uint64(i)+1))
	plantAt := make(map[int][]string)
	for _, term := range c.docTerms[i] {
		p := r.IntN(paragraphsPerDoc)
		plantAt[p] = append(plantAt[p], term)
	}
	var b bytes.Buffer
	b.Grow(6 << 10)
	fmt.Fprintf(&b, "# Document %d\n", i)
	for p := range paragraphsPerDoc {
		b.WriteByte('\n')
		nSentences := 2 + r.IntN(2)
		for s := range nSentences {
			if s > 0 {
				b.WriteByte(' ')
			}
			writeSentence(&b, r)
		}
		for _, term := range plantAt[p] {
			fmt.Fprintf(&b, " The reference code %s appears here.", term)
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// writeSentence appends one capitalized sentence of 5 to 11 words.
func writeSentence(b *bytes.Buffer, r *rand.Rand) {
	n := 5 + r.IntN(7)
	for w := range n {
		word := words[r.IntN(len(words))]
		if w == 0 {
			b.WriteString(strings.ToUpper(word[:1]))
			b.WriteString(word[1:])
			continue
		}
		b.WriteByte(' ')
		b.WriteString(word)
	}
	b.WriteByte('.')
}

// WriteTo writes every document into dir, which must exist.
func (c *genCorpus) WriteTo(dir string, workers int) error {
	workers = max(1, workers)
	next := make(chan int)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := os.WriteFile(filepath.Join(dir, c.DocName(i)), c.Doc(i), 0o644); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var err error
feed:
	for i := range c.Size {
		select {
		case next <- i:
		case err = <-errs:
			break feed
		}
	}
	close(next)
	wg.Wait()
	close(errs)
	if err == nil {
		err = <-errs
	}
	if err != nil {
		return fmt.Errorf("write corpus of %d docs: %w", c.Size, err)
	}
	return nil
}

// stamp identifies the generator output a cached corpus was built from.
func (c *genCorpus) stamp() string {
	return fmt.Sprintf("%s seed=%d size=%d\n", generatorVersion, c.Seed, c.Size)
}

// ensureCached returns the directory holding the corpus under cacheDir,
// generating it unless a directory with a matching stamp file is already
// there. The stamp lives next to the directory, not inside it, so it is never
// indexed; it is written last, so an interrupted generation is redone.
func (c *genCorpus) ensureCached(cacheDir string, workers int) (dir string, reused bool, err error) {
	dir = filepath.Join(cacheDir, fmt.Sprintf("gen-%d", c.Size))
	stampPath := dir + ".stamp"
	if got, err := os.ReadFile(stampPath); err == nil && string(got) == c.stamp() {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir, true, nil
		}
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", false, fmt.Errorf("read corpus stamp: %w", err)
	}
	if err := os.Remove(stampPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", false, fmt.Errorf("remove stale stamp: %w", err)
	}
	tmp := dir + ".tmp"
	for _, p := range []string{dir, tmp} {
		if err := os.RemoveAll(p); err != nil {
			return "", false, fmt.Errorf("remove stale corpus: %w", err)
		}
	}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return "", false, fmt.Errorf("create corpus dir: %w", err)
	}
	if err := c.WriteTo(tmp, workers); err != nil {
		return "", false, err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return "", false, fmt.Errorf("publish corpus: %w", err)
	}
	if err := os.WriteFile(stampPath, []byte(c.stamp()), 0o644); err != nil {
		return "", false, fmt.Errorf("write corpus stamp: %w", err)
	}
	return dir, false, nil
}
