package main

import (
	"encoding/base64"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// highCardinality are texts of nearly only distinct terms, each made of
// size bytes from r: what a refresh holds per term is then what it holds
// per byte.
var highCardinality = []struct {
	name string
	make func(r *rand.Rand, size int) []byte
}{
	{"base64 of random bytes", func(r *rand.Rand, size int) []byte {
		raw := randomBytes(r, size*3/4, 0)
		enc := base64.StdEncoding.EncodeToString(raw)
		var b strings.Builder
		for len(enc) > 76 {
			b.WriteString(enc[:76] + "\n")
			enc = enc[76:]
		}
		return []byte(b.String() + enc + "\n")
	}},
	{"hex dump", func(r *rand.Rand, size int) []byte {
		var b strings.Builder
		for off := 0; b.Len() < size; off += 16 {
			fmt.Fprintf(&b, "%08x:", off)
			for range 8 {
				fmt.Fprintf(&b, " %04x", r.Uint32()&0xffff)
			}
			b.WriteString("\n")
		}
		return []byte(b.String())
	}},
	{"minified JS", func(r *rand.Rand, size int) []byte {
		var b strings.Builder
		for b.Len() < size {
			fmt.Fprintf(&b, "var %s=function(%s,%s){return %s*0x%x+%s};", ident(r), ident(r), ident(r), ident(r), r.Uint32(), ident(r))
		}
		return []byte(b.String())
	}},
	{"UUID list", func(r *rand.Rand, size int) []byte {
		var b strings.Builder
		for b.Len() < size {
			fmt.Fprintf(&b, "%08x-%04x-4%03x-%04x-%012x\n", r.Uint32(), r.Uint32()&0xffff, r.Uint32()&0xfff, r.Uint32()&0xffff, r.Uint64()&(1<<48-1))
		}
		return []byte(b.String())
	}},
	{"random bytes without NUL", func(r *rand.Rand, size int) []byte { return randomBytes(r, size, 1) }},
}

// randomBytes is n random bytes, none below min.
func randomBytes(r *rand.Rand, n int, min byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = min + byte(r.UintN(256-uint(min)))
	}
	return b
}

// ident is a random identifier of mixed case and digits.
func ident(r *rand.Rand) string {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := []byte{letters[r.IntN(52)]}
	for range 3 + r.IntN(6) {
		b = append(b, letters[r.IntN(len(letters))])
	}
	return string(b)
}

// cardinality refreshes each high-cardinality text of size MiB, by the CLI
// and by serve --watch, and checks the peak RSS against the bound the
// amplification row holds: baseline + 8 × the text cap.
func (h *harness) cardinality(size int) outcome {
	o := outcome{Scenario: fmt.Sprintf("high-cardinality texts (%d MiB of base64, hex dump, minified JS, UUIDs, random bytes without NUL) × (refresh, serve --watch), peak RSS ≤ baseline + 8 × the %d MiB text cap", size, textCap>>20)}
	base, err := h.measuredRoot("plain.md", []byte("# Plain\n\nheronword\n"))
	if err != nil {
		o.fail("baseline: %v", err)
		return o
	}
	o.note("baseline refresh %d MiB", base>>10)
	r := rand.New(rand.NewPCG(h.seed, 36))
	for _, in := range highCardinality {
		data := in.make(r, size<<20)
		o.Trials++
		start := time.Now()
		rss, err := h.measuredRoot("blob.txt", data)
		switch {
		case err != nil:
			o.fail("refresh, %s: %v", in.name, err)
		case rss-base > 8*textCap>>10:
			o.fail("refresh, %s: peak RSS %d MiB, over the bound", in.name, rss>>10)
		default:
			o.note("refresh, %s: %d MiB, %.1f s", in.name, rss>>10, time.Since(start).Seconds())
		}
		o.Trials++
		if err := h.watchedBlob(in.name, data); err != nil {
			o.fail("serve --watch, %s: %v", in.name, err)
		}
	}
	return o
}

// watchedBlob starts serve --watch on a root of one plain file, writes
// data beside it and waits for the watcher to index it: the server's peak
// RSS may grow by at most 8 × the text cap over what it was before.
func (h *harness) watchedBlob(name string, data []byte) error {
	root, err := os.MkdirTemp(h.work, "watched-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(root)
	if err := os.WriteFile(filepath.Join(root, "plain.md"), []byte("# Plain\n\nheronword\n"), 0o644); err != nil {
		return err
	}
	if r := h.cli.run(nil, "--root", root, "refresh", "--json"); r.code != 0 {
		return fmt.Errorf("refresh: %s", r)
	}
	s, base, err := h.startServer(root, "serve", "--addr", "127.0.0.1:0", "--watch")
	if err != nil {
		return err
	}
	defer s.kill()
	if _, err := http.Get(base + "/v1/search?q=heronword"); err != nil {
		return err
	}
	before, err := peakRSS(s.cmd.Process.Pid)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(root, "blob.txt"), data, 0o644); err != nil {
		return err
	}
	if err := waitFiles(base, 2, 10*time.Minute); err != nil {
		return err
	}
	after, err := peakRSS(s.cmd.Process.Pid)
	if err != nil {
		return err
	}
	if after-before > 8*textCap>>10 {
		return fmt.Errorf("peak RSS %d MiB after indexing, %d MiB before: over the bound", after>>10, before>>10)
	}
	return nil
}

// waitFiles polls /v1/status until the root counts files indexed files.
func waitFiles(base string, files int, limit time.Duration) error {
	want := `"files":` + strconv.Itoa(files)
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		res, err := http.Get(base + "/v1/status")
		if err != nil {
			return err
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if strings.Contains(string(b), want) {
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("the watcher did not index the file within %v", limit)
}

// peakRSS is the peak resident set of process pid (VmHWM, KiB).
func peakRSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for l := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/%d/status", pid)
}
