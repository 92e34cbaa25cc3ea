// Command detect measures the language detector (analyze.Detect) per
// language: on the paragraphs of XQuAD (one directory per language, each
// with a BEIR corpus.jsonl) and on a localized documentation tree (one
// top-level folder per language, Markdown files parsed as the mirror
// parses them). A language without a chain of its own is expected to come
// out as English, whose chain it gets.
//
//	go run ./bench/detect -xquad ../shared/eval/xquad-dev -xquad ../shared/eval/xquad-de \
//	    -docs ../shared/corpora/opentelemetry-docs
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/mirror"
)

type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(s string) error { *l = append(*l, s); return nil }

// tally counts the detector's answers for one language.
type tally struct {
	n, right int
	wrong    map[string]int
}

type tallies map[string]*tally

func (t tallies) add(lang, got string) {
	want := lang
	if !slices.Contains(analyze.Languages(), lang) {
		want = analyze.English
	}
	x := t[lang]
	if x == nil {
		x = &tally{wrong: map[string]int{}}
		t[lang] = x
	}
	x.n++
	if got == want {
		x.right++
	} else {
		x.wrong[got]++
	}
}

func (t tallies) print(title string) {
	fmt.Printf("%s\n\n| lang | texts | accuracy | detected instead |\n|---|---|---|---|\n", title)
	var langs []string
	for l := range t {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	for _, l := range langs {
		x := t[l]
		var wrong []string
		for w, n := range x.wrong {
			wrong = append(wrong, fmt.Sprintf("%s %d", w, n))
		}
		sort.Strings(wrong)
		fmt.Printf("| %s | %d | %.3f | %s |\n", l, x.n, float64(x.right)/float64(x.n), strings.Join(wrong, ", "))
	}
	fmt.Println()
}

func main() {
	var xquad, docs list
	flag.Var(&xquad, "xquad", "an XQuAD directory: one folder per language with corpus.jsonl, or one such folder (xquad-de); repeatable")
	flag.Var(&docs, "docs", "a documentation tree with one top-level folder per language; repeatable")
	flag.Parse()
	if len(xquad)+len(docs) == 0 {
		flag.Usage()
		os.Exit(2)
	}
	t := tallies{}
	for _, dir := range xquad {
		if err := readXQuAD(t, dir); err != nil {
			fmt.Fprintln(os.Stderr, "detect:", err)
			os.Exit(1)
		}
	}
	if len(xquad) > 0 {
		t.print("XQuAD paragraphs (analyze.Detect)")
	}
	for _, dir := range docs {
		d, declared := tallies{}, tallies{}
		if err := readDocs(d, declared, dir); err != nil {
			fmt.Fprintln(os.Stderr, "detect:", err)
			os.Exit(1)
		}
		d.print(filepath.Base(dir) + " files (analyze.Detect of title and text)")
		declared.print(filepath.Base(dir) + " files, the declared language first (frontmatter lang, analyze.PathLanguage), else analyze.Detect")
	}
}

func readXQuAD(t tallies, dir string) error {
	if _, err := os.Stat(filepath.Join(dir, "corpus.jsonl")); err == nil {
		lang := strings.TrimPrefix(filepath.Base(dir), "xquad-")
		return readCorpus(t, lang, filepath.Join(dir, "corpus.jsonl"))
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() {
			if err := readCorpus(t, e.Name(), filepath.Join(dir, e.Name(), "corpus.jsonl")); err != nil {
				return err
			}
		}
	}
	return nil
}

func readCorpus(t tallies, lang, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var d struct{ Title, Text string }
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		t.add(lang, analyze.Detect(d.Title+"\n"+d.Text))
	}
	return sc.Err()
}

func readDocs(t, declared tallies, root string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".md" {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		lang, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		doc, err := mirror.Parse(rel, raw)
		if err != nil {
			return nil // not a document the mirror keeps
		}
		detected := analyze.Detect(doc.Title + "\n" + doc.Text)
		t.add(lang, detected)
		for _, f := range doc.Fields {
			if code, ok := analyze.Declared(f.Value); ok && f.Key == "lang" {
				declared.add(lang, code)
				return nil
			}
		}
		// The tree is the content/ folder of a Hugo site: content/ja/...
		if code, ok := analyze.PathLanguage("content/" + filepath.ToSlash(rel)); ok {
			declared.add(lang, code)
			return nil
		}
		declared.add(lang, detected)
		return nil
	})
}
