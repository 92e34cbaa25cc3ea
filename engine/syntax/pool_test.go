package syntax

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Parses from several goroutines at once, more than the pool has
// instances, give each sample the definitions of its golden.
func TestConcurrentParses(t *testing.T) {
	samples, err := filepath.Glob("testdata/samples/*")
	if err != nil {
		t.Fatal(err)
	}
	type job struct{ lang, src, want string }
	var jobs []job
	for _, path := range samples {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("testdata", "golden", filepath.Base(path)+".golden"))
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, job{LangOf(path), string(src), string(want)})
	}
	p := thePool()
	made := p.made.Load()
	var wg sync.WaitGroup
	for g := range 2 * maxInstances {
		wg.Go(func() {
			for i := range jobs {
				j := jobs[(i+g)%len(jobs)]
				ds, err := Parse(context.Background(), j.lang, []byte(j.src))
				if err != nil {
					t.Errorf("%s: %v", j.lang, err)
					return
				}
				if got := render(ds); got != j.want {
					t.Errorf("%s: concurrent parse differs from the golden:\n%s", j.lang, got)
				}
			}
		})
	}
	wg.Wait()
	if n := p.made.Load() - made; int(n) > cap(p.slots) {
		t.Errorf("%d instances made for %d parses, more than the pool's %d", n, 2*maxInstances*len(jobs), cap(p.slots))
	}
}

// Parses one after another reuse one instance: none is made per file.
func TestInstanceReused(t *testing.T) {
	ctx := context.Background()
	if _, err := Parse(ctx, "python", []byte("def f(): pass\n")); err != nil {
		t.Fatal(err)
	}
	p := thePool()
	made := p.made.Load()
	for _, s := range samples(t) {
		if _, err := Parse(ctx, s.lang, s.one); err != nil {
			t.Fatalf("%s: %v", s.lang, err)
		}
	}
	if n := p.made.Load() - made; n != 0 {
		t.Fatalf("%d instances made for parses one after another, want the idle one reused", n)
	}
}

// A cancel that comes after its instance closed writes nowhere: the
// memory it armed may be unmapped (withMemory).
func TestCancelAfterClose(t *testing.T) {
	ctx, in := testInstance(t)
	n := in.begin()
	in.arm()
	in.close(ctx)
	in.cancelCall(n)
	if in.cancel != nil {
		t.Fatal("a closed instance keeps its cancel word")
	}
}
