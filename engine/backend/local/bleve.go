package local

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/autorag/autorag/engine/analyze"
	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/record"
	"github.com/autorag/autorag/fingerprint"
)

//semguard:begin bleve-doc

// Fields of a chunk document. Only the body is indexed; text and meta are
// stored for the results a query prints.
const (
	fieldBody  = "b" // title, section and text, analyzed; no stored value, no term vectors
	fieldText  = "t" // the chunk text, stored only
	fieldMeta  = "m" // start line, end line, section, title, page, attachment, stored only
	fieldFacet = "f" // filter terms ("type=pdf", "author=ada"): a file's on its first chunk; an e-mail entry's on each of its chunks
	fieldLang  = "l" // the language the body was analyzed in (multilingual analysis only)
	fieldDefs  = "d" // the definitions a code chunk holds: stored, and indexed by name (defsField)
	stampKey   = "autorag.generation"
	bleveDir   = "bleve"
)

// errStamp reports a generation whose bleve index does not carry its own
// stamp: scorch fell back to an older snapshot.
var errStamp = errors.New("generation stamp mismatch")

// emptyAnalyzer yields no tokens: stored-only fields must not add terms.
type emptyAnalyzer struct{}

func (emptyAnalyzer) Analyze([]byte) analysis.TokenStream { return nil }

// keywordAnalyzer yields its whole input as one term.
type keywordAnalyzer struct{}

func (keywordAnalyzer) Analyze(b []byte) analysis.TokenStream {
	return analysis.TokenStream{{Term: b, Start: 0, End: len(b), Position: 1, Type: analysis.AlphaNumeric}}
}

// bleveDoc is the bleve document of chunk c, and its body field, whose
// analyzed length is known once the batch is applied.
func bleveDoc(c *backend.Chunk) (*document.Document, *bodyField) {
	d := document.NewDocument(record.ChunkID(c.Path, c.Ord))
	body := newBodyField(c)
	meta := strings.Join([]string{strconv.Itoa(c.StartLine), strconv.Itoa(c.EndLine), c.Section, c.Title, strconv.Itoa(c.Page), c.Attach}, backend.MetaSep)
	d.AddField(body)
	if len(c.Facets) > 0 {
		d.AddField(facetField(c.Facets))
	}
	if c.Lang != "" {
		d.AddField(document.NewTextFieldCustom(fieldLang, nil, []byte(c.Lang), index.IndexField, keywordAnalyzer{}))
	}
	if len(c.Defs) > 0 {
		d.AddField(defsField(c.Defs))
	}
	d.AddField(document.NewTextFieldCustom(fieldText, nil, []byte(c.Text), index.StoreField, emptyAnalyzer{}))
	d.AddField(document.NewTextFieldCustom(fieldMeta, nil, []byte(meta), index.StoreField, emptyAnalyzer{}))
	return d, body
}

// bodyField is the indexed body of a chunk: a bleve text field (indexed,
// not stored, no term vectors) analyzed in the chunk's language, whose
// term frequencies are counted as bleve's analysis.TokenFrequency counts
// them (the same terms, frequencies and length) with one allocation for
// many terms instead of one each.
type bodyField struct {
	*document.TextField
	length int
	freqs  index.TokenFrequencies
}

var _ index.Field = (*bodyField)(nil)

// newBodyField builds the body field of c: title, section and text, as
// Chunk.Body joins them, in a buffer of its own (analysis rewrites it).
func newBodyField(c *backend.Chunk) *bodyField {
	b := make([]byte, 0, len(c.Title)+len(c.Section)+len(c.Text)+2)
	b = append(append(append(append(append(b, c.Title...), '\n'), c.Section...), '\n'), c.Text...)
	return &bodyField{TextField: document.NewTextFieldCustom(fieldBody, nil, b, index.IndexField, analyze.ForLanguage(c.Lang))}
}

// Analyze analyzes the body and counts its terms. The token structs and
// the analyzer's cache of stems are reused from one body to the next (the
// terms are not): allocating the tokens was a quarter of a first
// refresh's allocated bytes. The terms are counted by stem id where the
// cache gave every one (bodyScratch.termFrequencies).
func (f *bodyField) Analyze() {
	s := scratchPool.Get().(*bodyScratch)
	tokens := analyze.AnalyzeReusing(f.Analyzer(), f.Value(), &s.Scratch)
	f.length = len(tokens)
	f.freqs = s.termFrequencies(tokens)
	scratchPool.Put(s)
}

// bodyScratch is the analyzers' token storage, and counts by stem id
// (all zero between bodies).
type bodyScratch struct {
	analyze.Scratch
	counts []int32
}

// scratchPool holds the analyzers' token storage between bodies.
var scratchPool = sync.Pool{New: func() any { return new(bodyScratch) }}

// AnalyzedLength is the body's token count, once analyzed.
func (f *bodyField) AnalyzedLength() int { return f.length }

// AnalyzedTokenFrequencies is the body's terms and their counts, once
// analyzed.
func (f *bodyField) AnalyzedTokenFrequencies() index.TokenFrequencies { return f.freqs }

// termFrequencies is analysis.TokenFrequency for a field without term
// vectors: each distinct term once, with the number of its tokens. Its
// entries come from slabs. The map is sized for every token, as bleve's
// is: sized for half of them, it grew on the generated corpus and cost
// more than the entries saved.
func termFrequencies(tokens analysis.TokenStream) index.TokenFrequencies {
	m := make(index.TokenFrequencies, len(tokens))
	var slab []index.TokenFreq
	for i, t := range tokens {
		if tf, ok := m[string(t.Term)]; ok {
			tf.SetFrequency(tf.Frequency() + 1)
			continue
		}
		if len(slab) == 0 {
			slab = make([]index.TokenFreq, min(len(tokens)-i, max(64, len(tokens)/2)))
		}
		tf := &slab[0]
		slab = slab[1:]
		tf.Term = t.Term
		tf.SetFrequency(1)
		m[string(t.Term)] = tf
	}
	return m
}

// indexMapping is the mapping stored with the index. Documents are built
// by hand (IndexAdvanced), so it only has to turn dynamic mapping off.
func indexMapping() *mapping.IndexMappingImpl {
	m := mapping.NewIndexMapping()
	m.DefaultMapping.Dynamic = false
	m.StoreDynamic = false
	m.IndexDynamic = false
	m.DocValuesDynamic = false
	return m
}

// rwConfig bounds bolt's file lock wait: nothing else should ever open a
// generation that is still being written. It returns a new map each time
// because bleve writes into the config it is given (its "path" key would
// otherwise point the next index at the previous one's store).
func rwConfig() map[string]interface{} {
	o := mergeOptions()
	return map[string]interface{}{
		"bolt_timeout": "10s",
		"scorchMergePlanOptions": map[string]interface{}{
			"MaxSegmentsPerTier":   o.MaxSegmentsPerTier,
			"MaxSegmentSize":       o.MaxSegmentSize,
			"TierGrowth":           o.TierGrowth,
			"SegmentsPerMergeTask": o.SegmentsPerMergeTask,
			"FloorSegmentSize":     o.FloorSegmentSize,
			"FloorSegmentFileSize": o.FloorSegmentFileSize,
			"ReclaimDeletesWeight": o.ReclaimDeletesWeight,
		},
	}
}

// createScorch creates the index at dir and stores what
// bleve.NewUsing(dir, indexMapping(), scorch.Name, scorch.Name, rwConfig())
// stores: index_meta.json naming scorch and the configuration the index
// was created with (before the store options are added to it), the store,
// and the mapping's JSON as the internal value "_mapping".
func createScorch(dir string) (*bleveIndex, error) {
	m := indexMapping()
	if err := m.Validate(); err != nil {
		return nil, err
	}
	cfg := rwConfig()
	meta, err := json.Marshal(indexMeta{Storage: scorch.Name, IndexType: scorch.Name, Config: cfg})
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if err := writeNew(filepath.Join(dir, "index_meta.json"), meta); err != nil {
		return nil, err
	}
	cfg["create_if_missing"], cfg["error_if_exists"], cfg["path"] = true, true, filepath.Join(dir, "store")
	idx, err := startScorch(scorch.Name, cfg)
	if err != nil {
		return nil, err
	}
	mb, err := json.Marshal(m)
	if err == nil {
		err = idx.s.SetInternal([]byte("_mapping"), mb)
	}
	if err != nil {
		idx.Close()
		return nil, fmt.Errorf("store mapping: %w", err)
	}
	return idx, nil
}

// writeNew writes b to a file that must not exist yet.
func writeNew(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, fingerprint.FilePerm)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

//semguard:end bleve-doc
