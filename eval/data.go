package eval

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
	if err := readJSONL(filepath.Join(dir, "corpus.jsonl"), func(d Doc) { ds.Docs = append(ds.Docs, d) }); err != nil {
		return nil, err
	}
	err = readJSONL(filepath.Join(dir, "queries.jsonl"), func(q Query) {
		if _, ok := ds.Qrels[q.ID]; ok {
			ds.Queries = append(ds.Queries, q)
		}
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

func readJSONL[T any](path string, fn func(T)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
		fn(v)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
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
