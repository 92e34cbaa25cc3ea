package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// corpus is a generated tree of documents the scenarios index, edit and
// query. Words are pseudo-words built from syllables, so every probe query
// matches a known, small set of documents.
type corpus struct {
	root string
	rng  *rand.Rand
	next int // number of the next new file
}

var syllables = []string{"ka", "lo", "mir", "un", "tes", "va", "qui", "dor", "pel", "sa", "ne", "bri", "tho", "gal", "fen", "ru"}

// word returns pseudo-word i (deterministic).
func word(i int) string {
	var b strings.Builder
	for n := i + 17; ; n /= len(syllables) {
		b.WriteString(syllables[n%len(syllables)])
		if n < len(syllables) {
			break
		}
	}
	return b.String()
}

// vocabulary is the number of distinct words documents draw from.
const vocabulary = 3000

// probes are the queries every check runs: common and rare words and a
// phrase, in BM25 and hybrid mode.
var probes = []string{word(1) + " " + word(2), word(7), word(42) + " " + word(99) + " " + word(100), word(1500), word(2999), word(500) + " " + word(3)}

func newCorpus(root string, files int, seed uint64) (*corpus, error) {
	c := &corpus{root: root, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	for range files {
		if err := c.add(); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// text returns a document of a few paragraphs under a heading.
func (c *corpus) text(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Note %d %s\n\n", n, word(c.rng.IntN(vocabulary)))
	for p := range 1 + c.rng.IntN(4) {
		if p > 0 && c.rng.IntN(2) == 0 {
			fmt.Fprintf(&b, "## Part %s\n\n", word(c.rng.IntN(vocabulary)))
		}
		for range 20 + c.rng.IntN(60) {
			// Skewed draw: low word numbers are common, high ones rare.
			w := int(float64(vocabulary) * c.rng.Float64() * c.rng.Float64())
			b.WriteString(word(w))
			b.WriteByte(' ')
		}
		b.WriteString("\n\n")
	}
	return b.String()
}

func (c *corpus) path(n int) string {
	return filepath.Join(c.root, fmt.Sprintf("d%02d", n%37), fmt.Sprintf("s%d", n%5), fmt.Sprintf("note-%05d.md", n))
}

func (c *corpus) add() error {
	n := c.next
	c.next++
	p := c.path(n)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(c.text(n)), 0o644)
}

// files lists the documents now in the tree, sorted.
func (c *corpus) files() []string {
	var out []string
	filepath.WalkDir(c.root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == ".autorag" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// mutate applies ops random edits, additions, deletions and renames.
func (c *corpus) mutate(ops int) error {
	files := c.files()
	for range ops {
		var err error
		switch k := c.rng.IntN(10); {
		case k < 5 && len(files) > 0:
			p := files[c.rng.IntN(len(files))]
			err = os.WriteFile(p, []byte(c.text(c.rng.IntN(1e6))), 0o644)
		case k < 7:
			err = c.add()
		case k < 9 && len(files) > 1:
			i := c.rng.IntN(len(files))
			err = os.Remove(files[i])
			if os.IsNotExist(err) {
				err = nil
			}
			files = append(files[:i], files[i+1:]...)
		case len(files) > 0:
			i := c.rng.IntN(len(files))
			to := c.path(c.next)
			c.next++
			if err = os.MkdirAll(filepath.Dir(to), 0o755); err == nil {
				err = os.Rename(files[i], to)
			}
			files[i] = to
		}
		if err != nil {
			return fmt.Errorf("mutate corpus: %w", err)
		}
	}
	return nil
}

// copySources copies the sources of root (not .autorag) to dst.
func copySources(root, dst string) error {
	return filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() && d.Name() == ".autorag" {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}

// copyAll copies root with its .autorag (regular files and directories;
// modes kept).
func copyAll(root, dst string) error {
	return filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		target := filepath.Join(dst, rel)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(target, fi.Mode().Perm())
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(target, b, fi.Mode().Perm()); err != nil {
			return err
		}
		// The manifest's mtimes stay valid: the copy's next refresh
		// stat-skips as the original's would.
		return os.Chtimes(target, fi.ModTime(), fi.ModTime())
	})
}
