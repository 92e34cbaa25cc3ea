package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

type doc struct {
	ID    string `json:"_id"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

type query struct {
	ID   string `json:"_id"`
	Text string `json:"text"`
}

// dataset is a corpus, the queries that have judgments in the split, and
// the judgments: query id → doc id → grade.
type dataset struct {
	docs    []doc
	queries []query // sorted by id
	qrels   map[string]map[string]int
}

func loadDataset(dir, split string) (*dataset, error) {
	ds := &dataset{}
	var err error
	if ds.qrels, err = loadQrels(filepath.Join(dir, "qrels", split+".tsv")); err != nil {
		return nil, err
	}
	if err := readJSONL(filepath.Join(dir, "corpus.jsonl"), func(d doc) { ds.docs = append(ds.docs, d) }); err != nil {
		return nil, err
	}
	err = readJSONL(filepath.Join(dir, "queries.jsonl"), func(q query) {
		if _, ok := ds.qrels[q.ID]; ok {
			ds.queries = append(ds.queries, q)
		}
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(ds.queries, func(i, j int) bool { return ds.queries[i].ID < ds.queries[j].ID })
	if len(ds.queries) != len(ds.qrels) {
		return nil, fmt.Errorf("%d judged queries, %d found in queries.jsonl", len(ds.qrels), len(ds.queries))
	}
	return ds, nil
}

func readJSONL[T any](path string, fn func(T)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
		fn(v)
	}
	return sc.Err()
}

// loadQrels reads "query-id \t corpus-id \t score" lines after a header.
func loadQrels(path string) (map[string]map[string]int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]int{}
	for n, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Split(strings.TrimSpace(line), "\t")
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
	return out, nil
}
