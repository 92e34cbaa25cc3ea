package syntax

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"math"
	"testing"

	"github.com/tetratelabs/wazero"
)

// BenchmarkParse parses each language's sample, grown to about 64 KiB
// (the file, then its body again: samples), through Parse: MB/s is the
// parse cost per MB of source (the walk, the copy into the module and the
// definitions included), cpu-MB/s the same per second of the process's CPU
// time (the figure to read on a busy machine). The budget is lifted so
// that a slow parse is measured, not cut.
func BenchmarkParse(b *testing.B) {
	defer func(f func(int) uint32) { budgetFor = f }(budgetFor)
	budgetFor = func(int) uint32 { return math.MaxUint32 }
	ctx := context.Background()
	for _, s := range samples(b) {
		b.Run(s.lang, func(b *testing.B) {
			if _, err := Parse(ctx, s.lang, s.big); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(s.big)))
			b.ResetTimer()
			cpu := cpuTime()
			for b.Loop() {
				if _, err := Parse(ctx, s.lang, s.big); err != nil {
					b.Fatal(err)
				}
			}
			if d := cpuTime() - cpu; d > 0 {
				b.ReportMetric(float64(len(s.big))*float64(b.N)/1e6/d.Seconds(), "cpu-MB/s")
			}
		})
	}
}

// BenchmarkCompile is the one-time cost the compilation cache saves: the
// module compiled by wazero from scratch.
func BenchmarkCompile(b *testing.B) {
	ctx := context.Background()
	wasm := module(b)
	for b.Loop() {
		rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig())
		if _, err := rt.CompileModule(ctx, wasm); err != nil {
			b.Fatal(err)
		}
		_ = rt.Close(ctx)
	}
}

// BenchmarkStartCached is the first Parse's start on a machine whose cache
// holds the compiled module: the module's bytes read (loadModule: on
// Linux the split module's code, its image checked), the runtime made and
// the module loaded.
func BenchmarkStartCached(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	warm := func() {
		wasm, release, img, err := loadModule()
		if err != nil {
			b.Fatal(err)
		}
		defer release()
		if img != nil {
			defer img.f.Close()
		}
		cc, err := wazero.NewCompilationCacheWithDir(dir)
		if err != nil {
			b.Fatal(err)
		}
		rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCompilationCache(cc))
		if _, err := rt.CompileModule(ctx, wasm); err != nil {
			b.Fatal(err)
		}
		_ = rt.Close(ctx)
	}
	warm()
	b.ResetTimer()
	for b.Loop() {
		warm()
	}
}

// BenchmarkInstance is what each instance of the pool costs once: the
// module instantiated (its data, the grammars' parse tables, mapped into
// a fresh memory on Linux, else copied) and closed. Instances serve parse
// after parse.
func BenchmarkInstance(b *testing.B) {
	ctx := context.Background()
	e, err := theEngine(ctx)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		in, err := newInstance(ctx, e)
		if err != nil {
			b.Fatal(err)
		}
		in.close(ctx)
	}
}

// BenchmarkUnzip is what every process that parses pays first: the
// embedded module unzipped.
func BenchmarkUnzip(b *testing.B) {
	b.SetBytes(int64(len(moduleGz)))
	for b.Loop() {
		zr, err := gzip.NewReader(bytes.NewReader(moduleGz))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, zr); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkModuleBytes is what every process that parses pays first
// instead, once a process has left the module unzipped in the cache: the
// copy read (on Unix mapped) and checked against the gzip trailer.
func BenchmarkModuleBytes(b *testing.B) {
	if _, release, err := moduleBytes(); err != nil {
		b.Fatal(err)
	} else {
		release()
	}
	for b.Loop() {
		_, release, err := moduleBytes()
		if err != nil {
			b.Fatal(err)
		}
		release()
	}
}

func module(b *testing.B) []byte {
	wasm, release, err := moduleBytes()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(release)
	return wasm
}
