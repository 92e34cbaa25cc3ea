// Command distill builds a static embedding table from a transformer
// teacher, as model2vec's distill does, without PyTorch: the teacher runs
// in process (package transformer).
//
//  1. Every token of the teacher's WordPiece vocabulary (but the [unusedN]
//     placeholders) goes through the teacher alone, as [CLS] token [SEP],
//     and the output is pooled (-pool: mean over the three states, as
//     model2vec does by default, or the model's own pooling).
//  2. The vectors are centred and projected on their top -dims principal
//     components (gonum's symmetric eigendecomposition of the covariance).
//  3. Each row is weighted by its vocabulary rank (-weight: sif, model2vec's
//     SIF weight a/(a+p(rank)) with p Zipf's law, or zipf, log(1+rank)).
//  4. Optionally (-corpus) the rows are refined tokenlearn-style: fitted by
//     SGD so that the mean of a text's rows points where the teacher's
//     embedding of the text (projected likewise) points.
//  5. Each row is quantized to int8 (package tab) and the table written.
//
// The teacher's raw vectors are cached in -cache (the slow step), so the
// later steps can be re-run with other settings.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"time"

	"github.com/autorag/autorag/engine/embed/static/internal/tab"
	"github.com/autorag/autorag/engine/embed/wordpiece"
	"github.com/autorag/autorag/models"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "distill:", err)
		os.Exit(1)
	}
}

type options struct {
	teacher  string
	pool     string
	dims     int
	weight   string
	sifA     float64
	corpus   string
	epochs   int
	lr       float64
	maxDocs  int
	maxLen   int
	cache    string
	out      string
	init     string
	norm     float64
	relative bool
}

func run(args []string, log io.Writer) error {
	var o options
	fs := flag.NewFlagSet("distill", flag.ContinueOnError)
	fs.StringVar(&o.teacher, "teacher", "bge-small-en-v1.5-q", "catalog name of the teacher (installed by make models)")
	fs.StringVar(&o.pool, "pool", "mean", "pooling of a token's states: mean (model2vec) or model (the teacher's own)")
	fs.IntVar(&o.dims, "dims", 256, "dimensions kept by PCA")
	fs.StringVar(&o.weight, "weight", "sif", "row weight by vocabulary rank: sif, zipf or none")
	fs.Float64Var(&o.sifA, "sif", 1e-4, "SIF coefficient")
	fs.StringVar(&o.corpus, "corpus", "", "directory of text files for the tokenlearn-style refinement (empty: none)")
	fs.IntVar(&o.epochs, "epochs", 3, "refinement epochs")
	fs.Float64Var(&o.lr, "lr", 0.05, "refinement learning rate")
	fs.IntVar(&o.maxDocs, "max-docs", 20000, "refinement: most passages taken from the corpus")
	fs.IntVar(&o.maxLen, "max-len", 128, "refinement: longest passage the teacher reads, in tokens")
	fs.StringVar(&o.cache, "cache", "", "directory for the teacher's vectors (default: none kept)")
	fs.StringVar(&o.init, "init", "", "refinement: start from this table's rows (same vocabulary) instead of the distilled ones")
	fs.Float64Var(&o.norm, "median-norm", 97, "scale the rows so their median length is this (the fallback vectors' length, static.fallbackNorm)")
	stepRule := fs.String("step", "plain", "refinement step: plain (lr × the gradient) or relative (lr × |s|² × the gradient)")
	fs.StringVar(&o.out, "out", "distilled.tab", "table file to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch *stepRule {
	case "plain":
	case "relative":
		o.relative = true
	default:
		return fmt.Errorf("-step %q: want plain or relative", *stepRule)
	}
	t, err := openTeacher(o.teacher, o.pool)
	if err != nil {
		return err
	}
	keep := keptTokens(t.vocab)
	tokens := make([]string, len(keep))
	for i, id := range keep {
		tokens[i] = t.vocab.Token(id)
	}
	vocab, err := wordpiece.BuildVocab(tokens)
	if err != nil {
		return err
	}
	var rows [][]float32
	var p *pca
	if o.init != "" {
		// The teacher's token vectors and their PCA serve only a
		// distilled start: -init's targets are mapped (mapped).
		if rows, err = readTable(o.init, vocab); err != nil {
			return err
		}
		o.dims = len(rows[0])
	} else if rows, p, err = distilled(t, o, keep, log); err != nil {
		return err
	}
	if o.corpus != "" {
		if rows, err = refine(t, o, p, vocab, rows, log); err != nil {
			return err
		}
	}
	scaleMedian(rows, o.norm)
	b, err := tab.Build(vocab, rows, o.dims)
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "distill: %d tokens × %d dims, %d bytes -> %s\n", len(rows), o.dims, len(b), o.out)
	return os.WriteFile(o.out, b, 0o644)
}

// distilled runs steps 1–3: the teacher's token vectors, their PCA and
// the rank weights.
func distilled(t *teacher, o options, keep []int, log io.Writer) ([][]float32, *pca, error) {
	start := time.Now()
	raw, err := cached(o.cache, fmt.Sprintf("%s-%s-tokens.f32", o.teacher, o.pool), func() ([][]float32, error) {
		return t.tokenVectors(keep, log)
	})
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(log, "distill: %d token vectors of %d dims (%s)\n", len(raw), len(raw[0]), time.Since(start).Round(time.Second))
	p, err := fitPCA(raw, o.dims)
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(log, "distill: PCA to %d dims keeps %.1f%% of the variance\n", o.dims, 100*p.explained)
	rows := p.project(raw)
	w, err := rankWeights(len(rows), o.weight, o.sifA)
	if err != nil {
		return nil, nil, err
	}
	scaleRows(rows, w)
	return rows, p, nil
}

// keptTokens is every token id but the [unusedN] placeholders, which no
// text can produce (potion-base-8M drops them too).
func keptTokens(v *wordpiece.Vocab) []int {
	var keep []int
	for id := range v.Len() {
		var n int
		if _, err := fmt.Sscanf(v.Token(id), "[unused%d]", &n); err == nil {
			continue
		}
		keep = append(keep, id)
	}
	return keep
}

// teacherDir finds the installed teacher.
func teacherDir(name string) (models.Installed, error) {
	m, err := models.Lookup(name)
	if err != nil {
		return models.Installed{}, err
	}
	dir, err := models.Dir()
	if err != nil {
		return models.Installed{}, err
	}
	in, err := models.Open(dir, m)
	if err != nil {
		return models.Installed{}, fmt.Errorf("teacher %s: %w (run make models)", name, err)
	}
	return in, nil
}

// readTable returns the rows of a table whose vocabulary is vocab.
func readTable(path string, vocab []byte) ([][]float32, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	tb, err := tab.Open(string(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if tb.Vocab() != string(vocab) {
		return nil, fmt.Errorf("%s: another vocabulary than the teacher's", path)
	}
	rows := make([][]float32, tb.Rows())
	for i := range rows {
		scale, q := tb.Row(i)
		rows[i] = make([]float32, tb.Dims())
		for d := range rows[i] {
			rows[i][d] = scale * float32(int8(q[d]))
		}
	}
	return rows, nil
}

// scaleMedian scales every row by one factor so the median row length is
// m: a text's vector does not change, and a fallback vector weighs as
// much against the rows as it does in potion-base-8M.
func scaleMedian(rows [][]float32, m float64) {
	ns := make([]float64, len(rows))
	for i, r := range rows {
		ns[i] = float64(norm(r))
	}
	sort.Float64s(ns)
	if med := ns[len(ns)/2]; med > 0 {
		scaleRows(rows, slices.Repeat([]float64{m / med}, len(rows)))
	}
}
