package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/autorag/autorag/internal/jsonl"
)

// Doc is one corpus document.
type Doc struct {
	ID    string `json:"_id"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// Query is one query.
type Query struct {
	ID   string `json:"_id"`
	Text string `json:"text"`
}

// Qrels are the judgments: query id → doc id → grade.
type Qrels map[string]map[string]int

// Dataset is a corpus, the queries judged in one split and the judgments.
type Dataset struct {
	Name    string
	Split   string
	Docs    []Doc
	Queries []Query // judged in the split, sorted by id
	Qrels   Qrels
}

// Load reads the BEIR directory dir with the judgments of split.
func Load(dir, split string) (*Dataset, error) {
	ds := &Dataset{Name: filepath.Base(filepath.Clean(dir)), Split: split}
	var err error
	if ds.Qrels, err = loadQrels(filepath.Join(dir, "qrels", split+".tsv")); err != nil {
		return nil, err
	}
	if err := jsonl.Read(filepath.Join(dir, "corpus.jsonl"), func(d Doc) bool { ds.Docs = append(ds.Docs, d); return true }); err != nil {
		return nil, err
	}
	err = jsonl.Read(filepath.Join(dir, "queries.jsonl"), func(q Query) bool {
		if _, ok := ds.Qrels[q.ID]; ok {
			ds.Queries = append(ds.Queries, q)
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(ds.Queries, func(i, j int) bool { return ds.Queries[i].ID < ds.Queries[j].ID })
	if len(ds.Queries) != len(ds.Qrels) {
		return nil, fmt.Errorf("%d judged queries, %d of them in queries.jsonl", len(ds.Qrels), len(ds.Queries))
	}
	if len(ds.Docs) == 0 {
		return nil, fmt.Errorf("%s: no documents", filepath.Join(dir, "corpus.jsonl"))
	}
	return ds, nil
}

// loadQrels reads "query-id \t corpus-id \t score" lines, after an optional
// header.
func loadQrels(path string) (Qrels, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := Qrels{}
	for n, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if n == 0 && len(f) == 3 && f[0] == "query-id" {
			continue
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("%s:%d: want 3 tab-separated fields", path, n+1)
		}
		g, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n+1, err)
		}
		if out[f[0]] == nil {
			out[f[0]] = map[string]int{}
		}
		out[f[0]][f[1]] = g
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no judgments", path)
	}
	return out, nil
}
