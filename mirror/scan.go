package mirror

import (
	"context"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/autorag/autorag/internal/failpoint"
	"github.com/autorag/autorag/mirror/parse"
)

// DefaultMaxFileSize is the largest source Scan reads when
// ScanOptions.MaxFileSize is 0.
const DefaultMaxFileSize = 16 << 20

// ScanOptions tune Scan.
type ScanOptions struct {
	// Paths, if non-nil, makes the scan targeted: only these paths (relative
	// to the root, or absolute inside it) are examined and the tree is not
	// walked. Every other entry is carried over from prev unchanged. A listed
	// path that no longer exists, is ignored, or is not a file has its entry
	// removed; a listed directory is scanned recursively (replacing every
	// entry under it).
	Paths []string
	// MaxFileSize is the largest file read; larger ones are reported in
	// Failed. 0 means DefaultMaxFileSize.
	MaxFileSize int64
	// OnRead, if set, is called after each file that had to be read (its
	// size or mtime changed) is hashed and parsed, with the number read so
	// far and the number to read; calls may come from several goroutines.
	OnRead func(done, total int)
	// Limits bound each parse of a document format (time, text produced,
	// bytes decompressed); zero fields take parse.DefaultLimits.
	Limits parse.Limits
	// Notice, if set, hears what a parser's slow one-time start is doing
	// ("preparing the PDF engine"), and "" when it is done.
	Notice func(text string)
	// OCR, when set, finds the OCR that reads the scanned pages of PDFs:
	// called once, when a PDF first needs it, so that a scan that meets
	// none runs no program. nil, or an error (reported in OCRError),
	// leaves them unread. See ocrvariant.go for how the setting decides
	// what is parsed again.
	OCR func(context.Context) (parse.OCR, error)
	// Failures are the parse failures remembered from earlier scans: a
	// file listed with its current size, mtime and parser is reported
	// failed again without being read. nil remembers nothing.
	Failures *FailMemo
}

// Failure is a file left out of the manifest, with the reason: "binary",
// "too large (N bytes)", "symlink outside root", "dangling symlink",
// "path outside root", or an I/O error ("read: ...", "stat: ...",
// "read dir: ..."). A refresh also lists here, with Indexed set, a file
// it indexed in a lesser way: code whose syntax parser failed or hit a
// limit, cut by the line heuristic instead.
type Failure struct {
	Path    string `json:"path"`
	Reason  string `json:"reason"`
	Indexed bool   `json:"indexed,omitempty"` // indexed anyway; Reason says how
}

// ScanResult is the outcome of Scan.
type ScanResult struct {
	Manifest    *Manifest
	Scanned     int      // files considered (not ignored, not a binary extension)
	StatSkipped int      // reused without reading: same size, mtime and parser
	Hashed      int      // read and hashed
	Parsed      int      // parsed and stored (a new text)
	Racy        int      // hashed although size and mtime matched (Manifest.Racy)
	OCRPages    int      // pages of scanned PDFs that OCR read
	Warnings    []string // ScanOptions.OCR's failure, when a PDF needed it
	Failed      []Failure
	Changed     bool // the manifest differs from prev (needs Save)
	// Failures is the parse-failure memo after this scan; FailuresChanged
	// says it differs from ScanOptions.Failures (needs Save).
	Failures        *FailMemo
	FailuresChanged bool
	// WalkTime is the wall time of the walk (or, targeted, of the listed
	// paths' checks); ParseTime that of reading, hashing and parsing the
	// files that changed (by the workers in parallel), so a refresh can
	// report parsing as a stage of its own.
	WalkTime, ParseTime time.Duration
}

// Scan brings prev up to date with the tree under root (change detection is
// mtime-then-hash; see doc.go) and stores the texts of new and changed files
// in store. Per-file problems are reported in Failed; only a cancelled
// context, an unreadable root, or a store write failure is an error. prev may
// be nil (nothing known). New objects become durable with store.Sync.
func Scan(ctx context.Context, root string, store *Store, prev *Manifest, opts ScanOptions) (*ScanResult, error) {
	if prev == nil {
		prev = &Manifest{}
	}
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	ctx = parse.WithNotice(ctx, opts.Notice)
	began := time.Now()
	w, err := newWalker(ctx, root)
	if err != nil {
		return nil, err
	}
	defer w.close()
	var cov *coverage
	if opts.Paths != nil {
		cov, err = w.targeted(opts.Paths)
	} else {
		w.files = make([]candidate, 0, len(prev.Entries)+len(prev.Entries)/16+16)
		cov, err = &coverage{all: true}, w.walkAll()
	}
	if err != nil {
		return nil, err
	}
	_ = failpoint.Hit("scan-after-walk")
	s := &scanner{ctx: ctx, tree: w.tree, store: store, prev: prev, max: opts.MaxFileSize, onRead: opts.OnRead, limits: opts.Limits,
		full: cov.all, memo: opts.Failures, ocr: &ocrState{ctx: ctx, find: opts.OCR}, repeated: map[string]ParseFailure{}, fresh: map[string]ParseFailure{}}
	res := &ScanResult{Scanned: len(w.files), Failed: w.failed, WalkTime: time.Since(began)}
	walked := time.Now()
	fresh, err := s.run(w.files, res)
	res.ParseTime = time.Since(walked)
	if err == nil {
		err = ctx.Err() // a cancelled scan never yields a manifest
	}
	if err != nil {
		return nil, err
	}
	entries := mergeEntries(prev.Entries, fresh, cov, &s.touched)
	changes := changesOf(prev.Entries, entries, s.touched)
	res.Manifest = &Manifest{Entries: entries, origin: prev.origin,
		delta: &delta{from: prev.Entries, to: entries, changes: changes}}
	if s.ocr.err != nil {
		res.Warnings = append(res.Warnings, "OCR is on but cannot run, scanned PDFs stay unread: "+s.ocr.err.Error())
	}
	res.Failures = opts.Failures.next(cov, s.repeated, s.fresh)
	res.FailuresChanged = !res.Failures.Equal(opts.Failures)
	res.Changed = len(changes) > 0
	slices.SortFunc(res.Failed, func(a, b Failure) int { return strings.Compare(a.Path, b.Path) })
	return res, nil
}

// scanner turns candidates into entries.
type scanner struct {
	ctx    context.Context
	tree   *tree
	store  *Store
	prev   *Manifest
	max    int64
	limits parse.Limits
	full   bool      // the whole tree is walked (not targeted)
	ocr    *ocrState // reads scanned pages, found on first need

	// touched are the paths whose entry the scan may have changed: those
	// read and, in a full scan, the previous entries not reused as they
	// are (a targeted scan's are found by mergeEntries). Every other path
	// keeps its previous entry, or has none on either side.
	touched []string

	memo     *FailMemo               // remembered parse failures
	repeated map[string]ParseFailure // memo entries that still apply; filled before the workers start
	mu       sync.Mutex              // guards fresh
	fresh    map[string]ParseFailure // parse failures of this scan

	onRead func(done, total int)
	nread  atomic.Int64

	byRaw func() map[rawKey]Hash // previous entries by content, built on first use
}

// rawKey identifies a source's content as a given parser sees it.
type rawKey struct {
	raw    Hash
	parser string
}

// outcome is what processing one candidate produced.
type outcome struct {
	entry  Entry
	ok     bool // entry is valid
	fail   string
	ocr    int // pages OCR read
	hashed bool
	parsed bool
}

// run processes every candidate, reading only those whose size, mtime or
// parser changed, on a pool of workers. It returns the new entries sorted
// by path (the candidates come in walk order, which is not sorted). When
// nothing changed the result is prev's own entry slice.
func (s *scanner) run(files []candidate, res *ScanResult) ([]Entry, error) {
	s.byRaw = sync.OnceValue(s.indexByRaw)
	prev := s.prev.Entries
	lookup := s.prevLookup(len(files))
	reused := make([]bool, len(prev)) // previous entries kept as they are
	var work []int                    // candidates to read
	for i := range files {
		c := &files[i]
		if c.size > s.max {
			res.Failed = append(res.Failed, Failure{Path: c.rel,
				Reason: reasonTooLarge + " (" + strconv.FormatInt(c.size, 10) + " bytes)"})
			continue
		}
		if f, ok := s.memo.lookup(c, s.accepts); ok {
			res.Failed = append(res.Failed, Failure{Path: c.rel, Reason: f.Reason})
			s.repeated[c.rel] = f
			continue
		}
		if j, ok := lookup(c.rel); ok && s.statSkip(c, &prev[j]) {
			if !s.prev.Racy(&prev[j]) {
				reused[j] = true
				res.StatSkipped++
				continue
			}
			res.Racy++
		}
		work = append(work, i)
	}
	if len(work) == 0 && res.StatSkipped == len(prev) {
		// Every previous entry was found again, unchanged: the walk's order
		// does not matter, the previous (sorted) list is the answer.
		return prev, nil
	}
	out := make([]outcome, len(work))
	if err := s.parallel(files, work, out); err != nil {
		return nil, err
	}
	var fresh []Entry
	for k := range out {
		o := &out[k]
		res.Hashed += b2i(o.hashed)
		res.Parsed += b2i(o.parsed)
		res.OCRPages += o.ocr
		if o.fail != "" {
			res.Failed = append(res.Failed, Failure{Path: files[work[k]].rel, Reason: o.fail})
		}
		if o.ok {
			fresh = append(fresh, o.entry)
			s.touched = append(s.touched, o.entry.Path)
		}
	}
	// The reused entries are in order already; only the files read are
	// sorted, then the two lists are merged (paths never repeat).
	slices.SortFunc(fresh, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	entries := make([]Entry, 0, res.StatSkipped+len(fresh))
	for j := range prev {
		if !reused[j] {
			if s.full {
				s.touched = append(s.touched, prev[j].Path)
			}
			continue
		}
		for len(fresh) > 0 && fresh[0].Path < prev[j].Path {
			entries, fresh = append(entries, fresh[0]), fresh[1:]
		}
		entries = append(entries, prev[j])
	}
	return append(entries, fresh...), nil
}

// prevLookup returns how run finds a candidate's previous entry: through a
// map of every path when most of the tree is scanned, by binary search when
// only a few candidates are (a targeted scan).
func (s *scanner) prevLookup(candidates int) func(string) (int, bool) {
	if candidates < len(s.prev.Entries)/64 {
		return func(p string) (int, bool) {
			return slices.BinarySearchFunc(s.prev.Entries, p, func(e Entry, p string) int {
				return strings.Compare(e.Path, p)
			})
		}
	}
	idx := pathIndex(s.prev)
	return func(p string) (int, bool) {
		j, ok := idx[p]
		return int(j), ok
	}
}

// pathIndex maps each path of m to its entry's index.
func pathIndex(m *Manifest) map[string]int32 {
	idx := make(map[string]int32, len(m.Entries))
	for i := range m.Entries {
		idx[m.Entries[i].Path] = int32(i)
	}
	return idx
}

// statSkip reports whether the fast path applies: the previous entry e has
// the same size, mtime and parser, so it is reused without reading the file.
func (s *scanner) statSkip(c *candidate, e *Entry) bool {
	return e.Size == c.size && e.MtimeNS == c.mtime && s.accepts(c, e.Parser)
}

// parallel processes the candidates at the indexes in work; out[k] receives
// the outcome of files[work[k]].
func (s *scanner) parallel(files []candidate, work []int, out []outcome) error {
	if len(work) == 0 {
		return nil
	}
	jobs := make(chan int)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	for range min(len(work), max(4, runtime.GOMAXPROCS(0))) {
		wg.Go(func() {
			for k := range jobs {
				if err := s.process(&files[work[k]], &out[k]); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
				if s.onRead != nil {
					s.onRead(int(s.nread.Add(1)), len(work))
				}
			}
		})
	}
	err := s.feed(jobs, work, errs)
	close(jobs)
	wg.Wait()
	if err == nil {
		select {
		case err = <-errs:
		default:
		}
	}
	return err
}

// feed hands out positions in work until it is done, the context is
// cancelled or a worker failed.
func (s *scanner) feed(jobs chan<- int, work []int, errs chan error) error {
	for k := range work {
		select {
		case jobs <- k:
		case <-s.ctx.Done():
			return s.ctx.Err()
		case err := <-errs:
			return err
		}
	}
	return nil
}

// mergeEntries combines the previous entries that the scan did not cover
// with the fresh ones; both inputs are sorted by path. The paths of the
// previous entries it drops (covered) are added to touched.
func mergeEntries(prev, fresh []Entry, cov *coverage, touched *[]string) []Entry {
	if cov.all {
		return fresh
	}
	out := make([]Entry, 0, len(prev)+len(fresh))
	j := 0
	for _, e := range prev {
		if cov.covers(e.Path) {
			*touched = append(*touched, e.Path)
			continue
		}
		for j < len(fresh) && fresh[j].Path < e.Path {
			out = append(out, fresh[j])
			j++
		}
		out = append(out, e)
	}
	return append(out, fresh[j:]...)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
