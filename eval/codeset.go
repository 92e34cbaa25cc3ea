package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/autorag/autorag/internal/jsonl"
)

// A code set is a folder of repositories, each a source tree with
// queries and file labels (the layout of codesearch-dev):
//
//	<name>/tree/             the repository's files
//	<name>/queries.jsonl     {"_id", "text", "category"}
//	<name>/qrels/test.tsv    query-id <TAB> path <TAB> score (path relative to tree/)
//
// A folder that is itself such a repository (it has tree/) is a set of one.

// CodeQuery is one query of a code set.
type CodeQuery struct {
	ID       string `json:"_id"`
	Text     string `json:"text"`
	Category string `json:"category"`
}

// CodeRepo is one repository of a code set: its tree, its judged queries
// (sorted by id) and their labelled files (path → grade).
type CodeRepo struct {
	Name    string
	Tree    string
	Queries []CodeQuery
	Labels  Qrels
}

// IsCodeSet reports whether dir is laid out as a code set (a repository
// with tree/, or a folder of them) rather than a BEIR directory.
func IsCodeSet(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, "corpus.jsonl")); err == nil {
		return false
	}
	if isDir(filepath.Join(dir, "tree")) {
		return true
	}
	m, _ := filepath.Glob(filepath.Join(dir, "*", "tree"))
	for _, t := range m {
		if isDir(t) {
			return true
		}
	}
	return false
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// LoadCodeSet reads the repositories of the code set dir (sorted by
// name), with the labels of split.
func LoadCodeSet(dir, split string) ([]*CodeRepo, error) {
	if isDir(filepath.Join(dir, "tree")) {
		r, err := loadCodeRepo(dir, split)
		if err != nil {
			return nil, err
		}
		return []*CodeRepo{r}, nil
	}
	m, err := filepath.Glob(filepath.Join(dir, "*", "tree"))
	if err != nil {
		return nil, err
	}
	sort.Strings(m)
	var out []*CodeRepo
	for _, t := range m {
		if !isDir(t) {
			continue
		}
		r, err := loadCodeRepo(filepath.Dir(t), split)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no repository (<name>/tree/)", dir)
	}
	return out, nil
}

func loadCodeRepo(dir, split string) (*CodeRepo, error) {
	r := &CodeRepo{Name: filepath.Base(filepath.Clean(dir)), Tree: filepath.Join(dir, "tree")}
	var err error
	if r.Labels, err = loadQrels(filepath.Join(dir, "qrels", split+".tsv")); err != nil {
		return nil, err
	}
	err = jsonl.Read(filepath.Join(dir, "queries.jsonl"), func(q CodeQuery) bool {
		if _, ok := r.Labels[q.ID]; ok {
			r.Queries = append(r.Queries, q)
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(r.Queries, func(i, j int) bool { return r.Queries[i].ID < r.Queries[j].ID })
	if len(r.Queries) != len(r.Labels) {
		return nil, fmt.Errorf("%s: %d labelled queries, %d of them in queries.jsonl", r.Name, len(r.Labels), len(r.Queries))
	}
	return r, nil
}
