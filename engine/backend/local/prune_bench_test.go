package local

import (
	"context"
	"reflect"
	"syscall"
	"testing"
	"time"

	"github.com/autorag/autorag/engine/backend"
	"github.com/autorag/autorag/engine/layout"
	"github.com/autorag/autorag/engine/rank"
	"github.com/autorag/autorag/fingerprint"
	"github.com/autorag/autorag/internal/benchtrees"
)

// BenchmarkBroadBM25 times the lexical list of the whole-process harness's
// broad query ("water people system", bm25 mode, k 10: the best 50
// chunks) on the committed generation of each folder in
// AUTORAG_BENCH_TREES (a comma list of trees indexed by `autorag refresh`,
// e.g. the harness's generated corpora), with the exhaustive scorer,
// MaxScore alone, and the default (tiers, built by the two queries before
// the timed ones), after checking that all give the same list; "build"
// times a query that builds the terms' tiers, and reports their size. It reports the process's CPU
// time per query beside the wall clock, which on a shared machine varies
// far more. Skipped without the variable.
func BenchmarkBroadBM25(b *testing.B) {
	benchtrees.Each(b, benchBroad)
}

func benchBroad(b *testing.B, dir string) {
	lay, err := layout.New(dir)
	if err != nil {
		b.Fatal(err)
	}
	sc, err := fingerprint.ReadSidecar(lay.SidecarPath())
	if err != nil {
		b.Fatal(err)
	}
	states := map[Scorer]*State{}
	for _, scorer := range []Scorer{ScorerExhaustive, ScorerMaxScore, ScorerPruned} {
		st := Storage{Dir: lay.Dir, GenDir: lay.GenDir, Scorer: scorer}
		state, err := st.Open(sc)
		if err != nil {
			b.Fatal(err)
		}
		defer state.Close()
		states[scorer] = state.(*State)
	}
	ctx := context.Background()
	q := backend.Query{Text: "water people system", Mode: rank.ModeBM25, K: 10, PerFile: 1, Want: 50, K1: 0.9, B: 0.4}
	lexical := func(scorer Scorer) []rank.Hit {
		l, err := states[scorer].Query(ctx, q)
		if err != nil {
			b.Fatal(err)
		}
		defer l.Close()
		hits, _, err := l.Lexical(ctx)
		if err != nil {
			b.Fatal(err)
		}
		return hits
	}
	ex := lexical(ScorerExhaustive)
	for _, scorer := range []Scorer{ScorerMaxScore, ScorerPruned, ScorerPruned, ScorerPruned} {
		if got := lexical(scorer); len(ex) == 0 || !reflect.DeepEqual(ex, got) {
			b.Fatalf("scorer %d differs:\n%v\n%v", scorer, ex, got)
		}
	}
	for _, sc := range []struct {
		name   string
		scorer Scorer
		build  bool
	}{{"exhaustive", ScorerExhaustive, false}, {"maxscore", ScorerMaxScore, false}, {"pruned", ScorerPruned, false}, {"build", ScorerPruned, true}} {
		b.Run(sc.name, func(b *testing.B) {
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				if sc.build {
					states[sc.scorer].tiers = newTierCache(1)
				}
				lexical(sc.scorer)
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
			if sc.build {
				b.ReportMetric(float64(states[sc.scorer].tiers.bytes), "tier-bytes")
			}
		})
	}
}

// cpuTime is the user and system time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
