package syntax

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// moduleGz is the tree-sitter module built by scripts/treesitter/build.sh
// (`make treesitter`), gzipped: the C runtime, every grammar and the glue.
//
//go:embed treesitter.wasm.gz
var moduleGz []byte

// moduleSHA256 is the line build.sh wrote beside the module; a test checks
// that the embedded bytes match it.
//
//go:embed treesitter.sha256
var moduleSHA256 string

// memoryPages caps each instance's linear memory: 4,096 pages of 64 KiB
// (256 MiB). A parse that needs more traps, and the instance is dropped.
const memoryPages = 4096

// engine is the process's one wazero runtime with the module compiled in
// it, and the image of the module's data when they were split off
// (loadModule; nil when the module was compiled whole).
type engine struct {
	rt  wazero.Runtime
	cm  wazero.CompiledModule
	img *image
}

var (
	engMu sync.Mutex
	eng   *engine

	dirMu    sync.Mutex
	cacheDir string
)

// UseCacheDir sets where the compiled module, and the module unzipped,
// are cached. The first call wins
// (a process uses one cache). Without a call the cache is autorag/treesitter
// in the user's cache directory (os.UserCacheDir), shared by every root on
// the machine since the compiled module depends only on the binary; when
// there is none the module is compiled in memory in every process.
func UseCacheDir(dir string) {
	dirMu.Lock()
	defer dirMu.Unlock()
	if cacheDir == "" {
		cacheDir = dir
	}
}

// Warm compiles the module (or loads it from the cache) unless that is done
// already. Parse does it on first use; Warm lets a caller choose the moment.
func Warm(ctx context.Context) error {
	_, err := theEngine(ctx)
	return err
}

// theEngine returns the process's engine, starting it on first use. The
// compile outlives the caller's context: a cancelled first caller must not
// leave the next one a half-made runtime.
func theEngine(ctx context.Context) (*engine, error) {
	engMu.Lock()
	defer engMu.Unlock()
	if eng != nil {
		return eng, nil
	}
	ctx = context.WithoutCancel(ctx)
	wasm, release, img, err := loadModule()
	if err != nil {
		return nil, err
	}
	defer release()
	rc := wazero.NewRuntimeConfig().
		WithMemoryLimitPages(memoryPages)
	if cc := compilationCache(); cc != nil {
		rc = rc.WithCompilationCache(cc)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, rc)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		_ = rt.Close(ctx)
		return nil, fmt.Errorf("start tree-sitter: %w", err)
	}
	cm, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		_ = rt.Close(ctx)
		return nil, fmt.Errorf("compile tree-sitter module: %w", err)
	}
	eng = &engine{rt: rt, cm: cm, img: img}
	return eng, nil
}

// loadModule returns the module to compile. Where instances map their
// memory (mapsImage) and there is a cache directory, that is the module
// without its data, from the split module the first process on the
// machine leaves there (imagefile.go), with the image of the data that
// each instance maps; else the whole module (moduleBytes), whose data
// wazero decodes, keeps and copies into every instance's memory. The
// caller calls release once the bytes are compiled.
func loadModule() (wasm []byte, release func(), img *image, err error) {
	path := imagePath()
	if !mapsImage || path == "" {
		wasm, release, err = moduleBytes()
		return wasm, release, nil, err
	}
	if code, img, err := openSplit(path); err == nil {
		return code, func() {}, img, nil
	}
	full, release, err := moduleBytesAt("")
	if err != nil {
		return nil, nil, nil, err
	}
	code, data, err := splitModule(full)
	if err != nil || writeSplit(path, code, data) != nil {
		return full, release, nil, nil
	}
	if code, img, err := openSplit(path); err == nil {
		return code, func() {}, img, nil
	}
	return full, release, nil, nil
}

func compilationCache() wazero.CompilationCache {
	dir := cacheDirectory()
	if dir == "" {
		return nil
	}
	cc, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		return nil
	}
	return cc
}

// cacheDirectory is the directory UseCacheDir set, else autorag/treesitter
// in the user's cache directory, else "" (none).
func cacheDirectory() string {
	dirMu.Lock()
	dir := cacheDir
	dirMu.Unlock()
	if dir != "" {
		return dir
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(base, "autorag", "treesitter")
}

// started reports whether the engine runs already (tests of laziness).
func started() bool {
	engMu.Lock()
	defer engMu.Unlock()
	return eng != nil
}

// moduleDigest is the hex sha256 of the embedded module, unzipped.
func moduleDigest() (string, error) {
	size, _, err := gzTrailer(moduleGz)
	if err != nil {
		return "", err
	}
	b, err := unzipModule(size)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}
