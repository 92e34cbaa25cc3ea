package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/embedding"
	"github.com/autorag/autorag/engine/filetable"
	"github.com/autorag/autorag/engine/progress"
	"github.com/autorag/autorag/engine/split"
	"github.com/autorag/autorag/engine/syntax"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/failpoint"
	"github.com/autorag/autorag/internal/heapbound"
	"github.com/autorag/autorag/internal/memfault"
	"github.com/autorag/autorag/mirror"
)

//semguard:begin build

// batchChunks bounds the chunks held in memory and sent to bleve at once.
// 1,024 against 4,096: a first refresh of 2,000 docs (6,000 chunks) peaked
// at 130 MB instead of 292 MB and took 1.54 s instead of 1.67 s (median of
// 5); 16,000 docs peaked at 210-226 MB instead of 451-454 MB in the same
// 13 s. Smaller batches overlap embedding and indexing more evenly.
const batchChunks = 1024

// batchTerms bounds the terms (split.TermsEstimate) of a part, cutting a
// file across parts if need be: bleve holds ~90 bytes a term until the
// part's segment is built, and a chunk of base64 makes 850 terms where
// English makes 229 and Go 268 (measured); prose fills a part by chunks.
const batchTerms = batchChunks * 320

// buildHeap is the heap a build takes beyond what its process held (heapbound).
const buildHeap = 128 << 20

// builder writes one new generation: the change set to the storage's
// writer, the file table to the generation directory.
type builder struct {
	e        *Engine
	store    *mirror.Store
	gen      string
	base     string // generation to build on; "" for a fresh build
	progress Progress
	vb       *embedding.Builder // nil without an embedder
	w        backend.Writer
	notes    []mirror.Failure // files indexed in a lesser way (fallbackNote)
}

// build writes the generation completely and durably (not visibly), and
// returns the counts of its file table. It fills the change counts of res.
// prev is the base generation's table (nil for a fresh build), cs the
// change from it to the scan's manifest.
func (b *builder) build(ctx context.Context, prev *filetable.Loaded, cs filetable.ChangeSet, res *RefreshResult) (filetable.Counts, error) {
	dir := b.e.Layout.GenDir(b.gen)
	res.Added, res.Modified, res.Deleted, res.Renamed = cs.Added, cs.Modified, cs.Deleted, cs.Renamed
	b.startBuildPhase(ctx, cs.Index)
	defer heapbound.Hold(buildHeap)()
	records, err := b.index(ctx, cs)
	b.progress.Phase(progress.Commit, "", -1)
	if err == nil {
		err = b.w.Finish(ctx)
	}
	if err != nil {
		return filetable.Counts{}, err
	}
	for _, r := range records {
		res.ChunksIndexed += r.Chunks
	}
	res.Failures = append(res.Failures, b.notes...)
	res.FilesIndexed = len(records)
	counts, err := b.writeTable(prev, records, cs.Removed)
	if err != nil {
		return counts, err
	}
	if err := failpoint.Hit("after-files"); err != nil {
		return counts, err
	}
	if err := fingerprint.SyncTree(dir); err != nil {
		return counts, err
	}
	if err := fingerprint.SyncDir(b.e.Layout.IndexDir()); err != nil {
		return counts, err
	}
	return counts, failpoint.Hit("after-generation")
}

// writeTable writes the new generation's file table: whole for a fresh
// build (records, in manifest order, are the table), else as the base's
// table changed by the records indexed and the paths removed.
func (b *builder) writeTable(prev *filetable.Loaded, records []filetable.Record, removed []string) (filetable.Counts, error) {
	dir := b.e.Layout.GenDir(b.gen)
	if prev == nil {
		t := filetable.Table(records)
		return t.Counts(), filetable.Write(dir, t)
	}
	return prev.WriteNext(b.e.Layout.GenDir(b.base), dir, records, removed)
}

// applying is a part of the change set on its way into the storage.
type applying struct {
	docs  []*backend.Chunk
	files int // files whose every chunk is in this part or before
	done  chan error
}

// index sends the change set to the storage in parts (split.Cut): the first
// carries all the deletes. Each part is embedded, then applied while the
// next part is chunked and embedded.
func (b *builder) index(ctx context.Context, cs filetable.ChangeSet) ([]filetable.Record, error) {
	records := make([]filetable.Record, 0, len(cs.Index))
	var pending []*backend.Chunk
	cut := split.Cut{MaxChunks: batchChunks, MaxTerms: batchTerms}
	deletes := cs.Deletes
	reported := 0 // files counted as done: every chunk of theirs applied
	var inflight *applying
	wait := func() error {
		if inflight == nil {
			return nil
		}
		err := <-inflight.done
		if err == nil {
			err = failpoint.Hit("mid-generation")
		}
		for _, c := range inflight.docs {
			records[c.FileIdx].Tokens += int64(c.Tokens)
		}
		b.filesIndexed(inflight.files - reported)
		reported, inflight = inflight.files, nil
		return err
	}
	// flush sends pending as one part; files counts the files whose last
	// chunk is in it or before.
	flush := func(final bool, files int) error {
		vecs, err := b.vb.Vectors(ctx, pending)
		if werr := wait(); err == nil {
			err = werr
		}
		if err != nil {
			return err
		}
		part := &applying{docs: pending, files: files, done: make(chan error, 1)}
		ch := backend.Change{Deletes: deletes, Upserts: pending, Vecs: vecs, Final: final}
		// Apply reads the mapped segments of the generation built on.
		go func() { part.done <- memfault.Guard(func() error { return b.w.Apply(ctx, ch) }) }()
		inflight, pending, deletes = part, nil, nil
		return nil
	}
	next, stop := split.Files(ctx, cs.Index, b.docOf, b.e.Settings.split())
	defer stop()
	for _, en := range cs.Index {
		f := next()
		if f.Err != nil {
			return nil, errors.Join(f.Err, wait())
		}
		if f.Fallback != nil {
			b.notes = append(b.notes, mirror.Failure{Path: en.Path, Indexed: true,
				Reason: "definitions not found (" + f.Fallback.Error() + "): cut by the line heuristic"})
		}
		records = append(records, filetable.Record{Path: en.Path, TextHash: en.TextHash, Chunks: len(f.Chunks)})
		// A file of more chunks or terms than a part holds is cut across
		// parts (see batchTerms).
		for i, d := range f.Chunks {
			d.FileIdx = len(records) - 1
			if pending = append(pending, d); !cut.Full(d.Text) {
				continue
			}
			files := len(records)
			if i < len(f.Chunks)-1 {
				files-- // this file goes on in the next part
			}
			if err := flush(false, files); err != nil {
				return nil, err
			}
		}
	}
	if err := flush(true, len(records)); err != nil {
		return nil, err
	}
	return records, wait()
}

// docOf reads a file's normalized text from the mirror (or, if the object
// is gone, parses the source again).
func (b *builder) docOf(en mirror.Entry) (*mirror.Doc, error) {
	doc, err := b.store.Get(en.TextHash)
	if err != nil {
		return b.reparse(en)
	}
	return doc, nil
}

// split is how a refresh cuts documents into chunks (split.Doc): code
// along the definitions tree-sitter finds (findDefs), Go along go/parser's;
// a file neither parses is cut by the chunker's per-language rules.
func (s Settings) split() split.Options {
	return split.Options{Chunk: s.Chunk, Multilingual: s.multilingual(), Defs: findDefs}
}

// findDefs is the syntax parser of code.
var findDefs split.DefFinder = split.DefFunc(syntax.Parse)

// chunked cuts entries on every core (split.Files), for the callers
// that read them all (embedding.Builder).
func (b *builder) chunked(ctx context.Context, entries []mirror.Entry) embedding.Files {
	return func(yield func(string, []*backend.Chunk, error) bool) {
		next, stop := split.Files(ctx, entries, b.docOf, b.e.Settings.split())
		defer stop()
		for _, en := range entries {
			if f := next(); !yield(en.Path, f.Chunks, f.Err) {
				return
			}
		}
	}
}

// startBuildPhase starts the build's phase. With a remote embedder and
// someone watching, the chunks to embed are counted first: the changed
// files are chunked and their texts looked up in the embedding cache, a
// cost that is small next to the requests it lets the line measure.
func (b *builder) startBuildPhase(ctx context.Context, entries []mirror.Entry) {
	if _, off := b.progress.(progress.None); off || !b.vb.Remote() {
		b.progress.Phase(progress.Index, "files", len(entries))
		return
	}
	b.progress.Phase(progress.Embed, "", -1)
	b.progress.Detail("counting the chunks to embed")
	n := b.vb.ToEmbed(ctx, b.chunked(ctx, entries))
	b.vb.Watch.CountChunks(len(entries))
	b.progress.Phase(progress.Embed, "chunks", n)
}

// filesIndexed counts n more files whose chunks are all indexed.
func (b *builder) filesIndexed(n int) {
	if b.vb != nil && b.vb.Watch.Counting() {
		b.vb.Watch.Indexed(n)
		return
	}
	b.progress.Add(n)
}

// reparse reads a source whose mirror object is missing and checks that it
// still has the text the manifest recorded.
func (b *builder) reparse(en mirror.Entry) (*mirror.Doc, error) {
	// Through mirror's resolver, as a scan reads: no symlinked directory,
	// no FIFO. One file's read: the callers' loops watch cancellation.
	raw, err := mirror.ReadRaw(context.Background(), b.e.Layout.Root, en.Path, b.e.Settings.MaxFileSize)
	if err != nil {
		return nil, fmt.Errorf("mirror object for %s missing and source unreadable: %w", en.Path, err)
	}
	doc, err := mirror.ParseAgain(context.Background(), en.Path, raw, en.Parser, b.e.Settings.OCRCommand)
	if err != nil {
		return nil, fmt.Errorf("reparse %s: %w", en.Path, err)
	}
	if doc.TextHash() != en.TextHash {
		return nil, fmt.Errorf("%s changed during the refresh; run refresh again", en.Path)
	}
	if _, err := b.store.Put(doc); err != nil {
		return nil, fmt.Errorf("restore mirror object for %s: %w", en.Path, err)
	}
	return doc, nil
}

//semguard:end build

//semguard:begin vector-builder

// openVectorBuilder opens the embedding cache for the configured embedder;
// it returns nil (a valid, inert builder) without one.
func (e *Engine) openVectorBuilder(o RefreshOptions) (*embedding.Builder, error) {
	if e.Settings.Embedder == nil {
		return nil, nil
	}
	dir := filepath.Join(e.Layout.CacheDir(), "embeddings")
	return embedding.Open(dir, e.Settings.Embedder, e.Settings.embedIdentity(), progress.Of(o.Progress))
}

//semguard:end vector-builder

// inProcess tells vb's progress watch when the embedder runs in this
// process (on every core; only a provider's embedder learns its vector
// size): the line then speaks of cores, not requests in flight.
func (e *Engine) inProcess(vb *embedding.Builder, err error) (*embedding.Builder, error) {
	if _, remote := e.Settings.Embedder.(dimsLearner); vb != nil && !remote {
		vb.Watch.InProcess(runtime.GOMAXPROCS(0))
	}
	return vb, err
}

// collectEmbeddings evicts cached embeddings no chunk of the committed generation uses once the
// cache is over its cap (embedding.Builder's Collect, which re-chunks the mirror only when the
// cache asks); an upgrade's target's stay (Layout.UpgradeTargets).
func (e *Engine) collectEmbeddings(ctx context.Context, v *embedding.Builder, man *mirror.Manifest, store *mirror.Store, res *RefreshResult) {
	b := &builder{e: e, store: store}
	res.Warnings = append(res.Warnings, v.CollectLive(b.chunked(ctx, man.Entries), e.Settings.EmbedCacheCap, e.Layout.UpgradeTargets()...)...)
}
