//go:build linux

package mirror

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/autorag/autorag/internal/amplify"
	"github.com/autorag/autorag/mirror/parse"
	"github.com/autorag/autorag/mirror/parse/pdf"
)

// amplifyText is the text cap of the amplification cases: small, so that
// "a small multiple of the cap" is far below what the inputs expand to.
const amplifyText = 4 << 20

// amplifyCap is the address-space cap (RLIMIT_AS) of the child process
// that parses one case: a parser that held what its input expands to
// dies of it instead of taking the machine's memory.
const amplifyCap = 3 << 30

// amplifyPDFUnpacked is the PDF cases' inflate budget (Limits.MaxUnpacked).
const amplifyPDFUnpacked = 32 << 20

// amplifyEnv names the case a re-executed test binary parses.
const amplifyEnv = "AUTORAG_AMPLIFY_CASE"

// amplifiers are internal/amplify's inputs by name, the mail case sized
// for amplifyText: 400 attachments, each a workbook that expands to 3 MiB,
// just under the cap; the PDF cases an object stream inflating to 40 MiB
// and a page content to 24 MiB (past 4x the cap).
var amplifiers = func() map[string]amplify.Input {
	m := map[string]amplify.Input{}
	for _, in := range append(amplify.Inputs(400, 3), amplify.PDFInputs(40, 24)...) {
		m[in.Name] = in
	}
	return m
}()

// TestAmplificationBounded parses every amplifier in a child process under
// an address-space cap and checks that the parse's peak RSS grew by at
// most a small multiple of the text cap, whatever the input expands to.
func TestAmplificationBounded(t *testing.T) {
	if name := os.Getenv(amplifyEnv); name != "" {
		amplifyChild(t, name)
		return
	}
	for name := range amplifiers {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestAmplificationBounded$", "-test.v")
			cmd.Env = append(os.Environ(), amplifyEnv+"="+name)
			out, err := cmd.CombinedOutput()
			grow, ok := grownMiB(out)
			if err != nil || !ok {
				t.Fatalf("child: %v\n%s", err, lastLines(out, 12))
			}
			t.Logf("%s; peak RSS grew %d MiB (text cap %d MiB)", outcomeLine(out), grow, amplifyText>>20)
			if limit := raceMemory * 8 * amplifyText >> 20; grow > limit {
				t.Errorf("peak RSS grew %d MiB during the parse, more than %d MiB (8x the text cap, x%d under the race detector)", grow, limit, raceMemory)
			}
		})
	}
}

// amplifyChild parses one case and prints how much the peak RSS grew.
func amplifyChild(t *testing.T, name string) {
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: amplifyCap, Max: amplifyCap}); err != nil {
		t.Fatal(err)
	}
	debug.SetGCPercent(100)
	in, ok := amplifiers[name]
	if !ok {
		t.Fatalf("no amplifier %q", name)
	}
	path := in.File
	data, err := in.Data()
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".pdf") { // the PDF engine's start is not the parse's
		if err := (pdf.Parser{}).Warm(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	before := resetPeak(t)
	lim := parse.Limits{MaxText: amplifyText}
	if strings.HasSuffix(path, ".pdf") {
		// PDF streams inflate past a 32 MiB budget here (40 MiB object
		// stream), not the default 128 MiB: the inputs stay quick to make
		// under the race detector.
		lim.MaxUnpacked = amplifyPDFUnpacked
	}
	d, err := ParseContext(context.Background(), path, data, lim)
	peak := procStatus(t, "VmHWM")
	n := 0
	if d != nil {
		n = len(d.Text)
	}
	fmt.Printf("amplify: %s: text %d bytes, err %v\n", name, n, err)
	fmt.Printf("amplify-grown-mib %d\n", (peak-before)>>10)
}

// resetPeak resets the process's peak RSS (VmHWM) to its current RSS and
// returns that, in KiB.
func resetPeak(t *testing.T) int {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Fatalf("reset peak RSS: %v", err)
	}
	return procStatus(t, "VmRSS")
}

// procStatus reads a "kB" field of /proc/self/status.
func procStatus(t *testing.T, field string) int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for l := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}

func outcomeLine(out []byte) string {
	for l := range strings.Lines(string(out)) {
		if strings.HasPrefix(l, "amplify: ") {
			return strings.TrimSpace(l)
		}
	}
	return "no outcome"
}

func grownMiB(out []byte) (int, bool) {
	for l := range strings.Lines(string(out)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "amplify-grown-mib "); ok {
			n, err := strconv.Atoi(v)
			return n, err == nil
		}
	}
	return 0, false
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
