package main

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/autorag/autorag/internal/jsonl"
)

// passageChars is the length passages are gathered to: a few sentences,
// well inside the teacher's window.
const passageChars = 600

// readPassages gathers passages from the comma-separated paths: each line
// of a .jsonl file (BEIR's corpus.jsonl: title and text) is one, prose
// files are cut at blank lines into runs of about passageChars, and
// source files (codeExts) likewise but code kept (codePassages). Repeated
// passages (licence headers) count once. At most max passages are kept,
// a fixed pseudo-random choice.
func readPassages(paths string, max int) ([]string, error) {
	var out []string
	for _, root := range strings.Split(paths, ",") {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			ps, err := filePassages(path)
			out = append(out, ps...)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("corpus %s: %w", root, err)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("corpus %s: no passages", paths)
	}
	sort.Strings(out) // the walk's order must not matter
	out = slices.Compact(out)
	r := rand.New(rand.NewPCG(22, 22))
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out[:min(max, len(out))], nil
}

func filePassages(path string) ([]string, error) {
	switch filepath.Ext(path) {
	case ".jsonl":
		return jsonlPassages(path)
	case ".md", ".txt", ".rst", ".html":
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return paragraphs(string(b)), nil
	}
	if codeExts[filepath.Ext(path)] {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return codePassages(string(b)), nil
	}
	return nil, nil
}

func jsonlPassages(path string) ([]string, error) {
	var out []string
	err := jsonl.Read(path, func(doc struct{ Title, Text string }) bool {
		if t := strings.TrimSpace(doc.Title + "\n" + doc.Text); len(t) > 40 {
			out = append(out, t[:min(len(t), 2*passageChars)])
		}
		return true
	})
	return out, err
}

// paragraphs joins a file's blank-line separated blocks into passages,
// leaving out code fences and front matter lines.
func paragraphs(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if t := strings.TrimSpace(cur.String()); len(t) > 80 {
			out = append(out, t)
		}
		cur.Reset()
	}
	fence := false
	for _, block := range strings.Split(s, "\n\n") {
		b := strings.TrimSpace(block)
		inCode := fence || strings.HasPrefix(b, "```")
		if strings.Count(b, "```")%2 == 1 {
			fence = !fence
		}
		if inCode || b == "" || strings.HasPrefix(b, "---") || strings.HasPrefix(b, "{{") {
			continue
		}
		if cur.Len() > 0 && cur.Len()+len(b) > passageChars {
			flush()
		}
		cur.WriteString(b)
		cur.WriteString("\n")
	}
	flush()
	return out
}
