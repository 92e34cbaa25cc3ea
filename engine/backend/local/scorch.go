package local

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	index "github.com/blevesearch/bleve_index_api"
)

// A generation's bleve index is a scorch index opened directly, not
// through bleve's top-level package: that package's init (its registry
// defaults, the upside-down index and its protobuf, expvar, the HTML
// highlighter, four analysis goroutines) ran at the start of every autorag
// process, --version included, for the six calls the backend made of it
// (docs/BENCHMARKS.md, "Start-up and the one-shot query"). What bleve.NewUsing stores,
// createScorch stores byte for byte (TestCreateScorchStoresWhatBleveDoes);
// opening reads index_meta.json as bleve.OpenUsing does but skips the
// stored mapping, which nothing here reads (documents are built by hand).

// errIndexClosed reports a use of a closed index.
var errIndexClosed = errors.New("index is closed")

// analysisQueue is the workers scorch analyzes a batch's documents on,
// shared by the process's indexes as bleve's own queue is (4 workers).
var analysisQueue = sync.OnceValue(func() *index.AnalysisQueue { return index.NewAnalysisQueue(4) })

// bleveIndex is an open scorch index.
type bleveIndex struct {
	mu    sync.RWMutex
	s     index.Index
	open  bool
	store string // the store's path, which scorch's asynchronous errors name (forceMergeOnce)
}

// indexMeta is index_meta.json: the index type, its storage and the
// configuration it was created with.
type indexMeta struct {
	Storage   string                 `json:"storage"`
	IndexType string                 `json:"index_type"`
	Config    map[string]interface{} `json:"config,omitempty"`
}

// openScorch opens the index at dir with bleve.OpenUsing's configuration:
// index_meta.json's, then the store path, then runtime's entries.
func openScorch(dir string, runtime map[string]interface{}) (*bleveIndex, error) {
	b, err := os.ReadFile(filepath.Join(dir, "index_meta.json"))
	if err != nil {
		return nil, fmt.Errorf("read index meta: %w", err)
	}
	var meta indexMeta
	if err := json.Unmarshal(b, &meta); err != nil {
		return nil, fmt.Errorf("index meta: %w", err)
	}
	if meta.IndexType != scorch.Name {
		return nil, fmt.Errorf("index type %q: only %q is supported", meta.IndexType, scorch.Name)
	}
	cfg := meta.Config
	if cfg == nil {
		cfg = map[string]interface{}{}
	}
	cfg["path"] = filepath.Join(dir, "store")
	cfg["create_if_missing"] = false
	cfg["error_if_exists"] = false
	for k, v := range runtime {
		cfg[k] = v
	}
	return startScorch(meta.Storage, cfg)
}

func startScorch(storage string, cfg map[string]interface{}) (*bleveIndex, error) {
	cfg["asyncErrorCallbackName"] = asyncErrorsName // at run time: index_meta.json is written already
	s, err := scorch.NewScorch(storage, cfg, analysisQueue())
	if err != nil {
		return nil, err
	}
	if err := s.Open(); err != nil {
		return nil, err
	}
	store, _ := cfg["path"].(string)
	return &bleveIndex{s: s, open: true, store: store}, nil
}

// Advanced is the scorch index.
func (i *bleveIndex) Advanced() (index.Index, error) { return i.s, nil }

func (i *bleveIndex) Close() error {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.open = false
	return i.s.Close()
}

// reading calls f with a reader of the current snapshot.
func (i *bleveIndex) reading(f func(index.IndexReader) error) (err error) {
	i.mu.RLock()
	defer i.mu.RUnlock()
	if !i.open {
		return errIndexClosed
	}
	r, err := i.s.Reader()
	if err != nil {
		return fmt.Errorf("open index reader: %w", err)
	}
	defer func() {
		if cerr := r.Close(); err == nil {
			err = cerr
		}
	}()
	return f(r)
}

func (i *bleveIndex) DocCount() (n uint64, err error) {
	err = i.reading(func(r index.IndexReader) (err error) {
		n, err = r.DocCount()
		return err
	})
	return n, err
}

func (i *bleveIndex) GetInternal(key []byte) (v []byte, err error) {
	err = i.reading(func(r index.IndexReader) (err error) {
		v, err = r.GetInternal(key)
		return err
	})
	return v, err
}

func (i *bleveIndex) NewBatch() *bleveBatch { return &bleveBatch{b: index.NewBatch()} }

// Batch applies b in one scorch batch.
func (i *bleveIndex) Batch(b *bleveBatch) error {
	i.mu.RLock()
	defer i.mu.RUnlock()
	if !i.open {
		return errIndexClosed
	}
	return i.s.Batch(b.b)
}

// bleveBatch collects a batch's operations as bleve.Batch does.
type bleveBatch struct{ b *index.Batch }

func (b *bleveBatch) Delete(id string) {
	if id != "" {
		b.b.Delete(id)
	}
}

func (b *bleveBatch) IndexAdvanced(d *document.Document) error {
	if d.ID() == "" {
		return errors.New("document id cannot be empty")
	}
	b.b.Update(d)
	return nil
}

func (b *bleveBatch) SetInternal(key, val []byte) { b.b.SetInternal(key, val) }
