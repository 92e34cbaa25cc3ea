package pdf

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// memoryPages bounds each instance's linear memory: 4,096 pages of 64 KiB
// (256 MiB). A PDF that needs more fails to parse. wazero grows the memory
// as a Go slice, so a grow to the limit briefly holds 1.5 times it: at 512
// MiB a PDF that PDFium expands (nested forms) took a refresh past 1 GiB
// and, under an address-space cap, killed the process.
const memoryPages = 4096

type instanceAPI = pdfium.Pdfium

var (
	mu       sync.Mutex
	pool     pdfium.Pool
	cacheDir string
)

// UseCacheDir sets where the compiled PDFium module is cached. The first
// call wins (a process uses one cache). Without a call the cache is
// autorag/pdfium in the user's cache directory (os.UserCacheDir, e.g.
// ~/.cache), shared by every root on the machine since the compiled module
// depends only on the binary; when there is none the module is compiled in
// memory in every process.
func UseCacheDir(dir string) {
	mu.Lock()
	defer mu.Unlock()
	if cacheDir == "" {
		cacheDir = dir
	}
}

// instance returns a PDFium instance from the process's pool, starting the
// pool on first use (one instance per core at most).
func instance(ctx context.Context) (pdfium.Pdfium, error) {
	p, err := thePool()
	if err != nil {
		return nil, err
	}
	wait := 30 * time.Second
	if dl, ok := ctx.Deadline(); ok {
		wait = time.Until(dl)
	}
	inst, err := p.GetInstance(wait)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		return nil, fmt.Errorf("start pdfium: %w", err)
	}
	return inst, nil
}

// started reports whether the process's pool runs already.
func started() bool {
	mu.Lock()
	defer mu.Unlock()
	return pool != nil
}

func thePool() (pdfium.Pool, error) {
	mu.Lock()
	defer mu.Unlock()
	if pool != nil {
		return pool, nil
	}
	rc := wazero.NewRuntimeConfig().
		WithCoreFeatures(api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling).
		WithMemoryLimitPages(memoryPages).
		WithCloseOnContextDone(true)
	dir := cacheDir
	if dir == "" {
		if base, err := os.UserCacheDir(); err == nil {
			dir = filepath.Join(base, "autorag", "pdfium")
		}
	}
	if dir != "" {
		if cc, err := wazero.NewCompilationCacheWithDir(dir); err == nil {
			rc = rc.WithCompilationCache(cc)
		}
	}
	n := runtime.GOMAXPROCS(0)
	p, err := webassembly.Init(webassembly.Config{MinIdle: 0, MaxIdle: n, MaxTotal: n, RuntimeConfig: rc, ReuseWorkers: true})
	if err != nil {
		return nil, fmt.Errorf("start pdfium: %w", err)
	}
	pool = p
	return pool, nil
}
