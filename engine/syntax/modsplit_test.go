package syntax

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// tinyModule is a module with one memory of minPages and the data
// section data (nil for none).
func tinyModule(minPages byte, data []byte) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, secMemory, 3, 1, 0, minPages)
	if data != nil {
		m = append(m, secDataCount, 1, 1)
		m = append(m, secData, byte(len(data)))
		m = append(m, data...)
	}
	return m
}

func TestSplitModule(t *testing.T) {
	// One active segment: "hi" at 16, then "yo" at 70,000 (i32.const in
	// signed LEB128: 0xf0 0xa2 0x04).
	two := []byte{2, 0, 0x41, 16, 0x0b, 2, 'h', 'i', 0, 0x41, 0xf0, 0xa2, 0x04, 0x0b, 2, 'y', 'o'}
	code, img, err := splitModule(tinyModule(2, two))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(code, tinyModule(2, nil)) {
		t.Errorf("code % x, want the module without its data and data count", code)
	}
	if len(img) != 18*pageSize || string(img[16:18]) != "hi" || string(img[70000:70002]) != "yo" {
		t.Errorf("image of %d bytes, want 18 pages with the two segments", len(img))
	}
	if n := bytes.Count(img, []byte{0}); n != len(img)-4 {
		t.Errorf("image holds %d non-zero bytes, want 4", len(img)-n)
	}
	for name, m := range map[string][]byte{
		"passive segment":         tinyModule(2, []byte{1, 1, 2, 'h', 'i'}),
		"offset from a global":    tinyModule(2, []byte{1, 0, 0x23, 0, 0x0b, 2, 'h', 'i'}),
		"past the initial memory": tinyModule(1, []byte{1, 0, 0x41, 0xf0, 0xa2, 0x04, 0x0b, 2, 'y', 'o'}),
		"negative offset":         tinyModule(2, []byte{1, 0, 0x41, 0x7f, 0x0b, 2, 'h', 'i'}),
		"no data":                 tinyModule(2, nil),
		"truncated":               tinyModule(2, two)[:30],
		"not wasm":                []byte("#!/bin/sh\n"),
	} {
		if _, _, err := splitModule(m); err == nil {
			t.Errorf("%s: split, want an error", name)
		}
	}
}

// The split module file is checked whole when opened: a changed byte in
// the header, the image or the code is refused.
func TestSplitFileChecked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.split")
	code, img := []byte("code bytes"), bytes.Repeat([]byte{7}, 2*pageSize)
	if err := writeSplit(path, code, img); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	gotCode, im, err := openSplit(path)
	if err != nil {
		t.Fatal(err)
	}
	back := make([]byte, im.size)
	if err := im.readInto(back); err != nil || !bytes.Equal(back, img) || !bytes.Equal(gotCode, code) {
		t.Fatalf("read back code %q and %d bytes of image (%v)", gotCode, len(back), err)
	}
	im.f.Close()
	for _, at := range []int{0, 9, 25, pageSize + 5, len(good) - 1} {
		bad := bytes.Clone(good)
		bad[at] ^= 1
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, im, err := openSplit(path); err == nil {
			im.f.Close()
			t.Errorf("byte %d changed: opened", at)
		}
	}
	if err := os.WriteFile(path, good[:len(good)-1], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := openSplit(path); err == nil {
		t.Error("a byte short: opened")
	}
}

// The module without its data, on a memory that starts as the image,
// finds the very definitions the whole module finds in every sample.
func TestSplitParsesAsWhole(t *testing.T) {
	if !mapsImage {
		t.Skip("the module is loaded whole here")
	}
	whole, release, err := moduleBytesAt("")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	code, data, err := splitModule(whole)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m.split")
	if err := writeSplit(path, code, data); err != nil {
		t.Fatal(err)
	}
	code, img, err := openSplit(path)
	if err != nil {
		t.Fatal(err)
	}
	defer img.f.Close()
	a, b := engineOf(t, whole, nil), engineOf(t, code, img)
	samples, err := filepath.Glob("testdata/samples/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range samples {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ra, rb := parseWith(t, a, LangOf(p), src), parseWith(t, b, LangOf(p), src)
		if len(ra) == 0 || !reflect.DeepEqual(ra, rb) {
			t.Errorf("%s: %d records whole, %d split, or they differ", p, len(ra), len(rb))
		}
	}
}

// engineOf compiles wasm in a runtime of its own (through the cache
// directory's compilation cache), with img for its instances' memory.
func engineOf(t *testing.T, wasm []byte, img *image) *engine {
	t.Helper()
	ctx := context.Background()
	rc := wazero.NewRuntimeConfig().WithMemoryLimitPages(memoryPages)
	if cc := compilationCache(); cc != nil {
		rc = rc.WithCompilationCache(cc)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, rc)
	t.Cleanup(func() { _ = rt.Close(ctx) })
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		t.Fatal(err)
	}
	cm, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		t.Fatal(err)
	}
	return &engine{rt: rt, cm: cm, img: img}
}

func parseWith(t *testing.T, e *engine, lang string, src []byte) []record {
	t.Helper()
	ctx := context.Background()
	in, err := newInstance(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	defer in.close(ctx)
	recs, _, _, err := parseIn(ctx, in, lang, src)
	if err != nil {
		t.Fatalf("%s: %v", lang, err)
	}
	return recs
}
