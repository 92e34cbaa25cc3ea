//go:build linux

package mirror

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/autorag/autorag/mirror/internal/parsetest"
	"github.com/autorag/autorag/mirror/parse"
)

// amplifyText is the text cap of the amplification cases: small, so that
// "a small multiple of the cap" is far below what the inputs expand to.
const amplifyText = 4 << 20

// amplifyCap is the address-space cap (RLIMIT_AS) of the child process
// that parses one case: a parser that held what its input expands to
// dies of it instead of taking the machine's memory.
const amplifyCap = 3 << 30

// amplifyEnv names the case a re-executed test binary parses.
const amplifyEnv = "AUTORAG_AMPLIFY_CASE"

// amplifiers are small inputs that expand: one per way a format can refer
// to the same text many times or expand it while decoding.
var amplifiers = map[string]func(t testing.TB) (string, []byte){
	// One 1 MiB shared string referenced by 1,000 cells of one row.
	"xlsx shared string x cells": func(t testing.TB) (string, []byte) {
		return "row.xlsx", sharedSheet(t, `<row>`+strings.Repeat(`<c t="s"><v>0</v></c>`, 1000)+`</row>`, 1)
	},
	// The same string in one cell of each of 20,000 rows.
	"xlsx shared string x rows": func(t testing.TB) (string, []byte) {
		return "rows.xlsx", sharedSheet(t, `<row><c t="s"><v>0</v></c></row>`, 20000)
	},
	// 400 attachments, each a 4 KB workbook that expands to just under
	// the cap.
	"eml attachments x expansion": func(t testing.TB) (string, []byte) {
		att := base64.StdEncoding.EncodeToString(sharedSheet(t, `<row><c t="s"><v>0</v></c></row>`, 3))
		var b strings.Builder
		b.WriteString("From: a@b\r\nSubject: many\r\nContent-Type: multipart/mixed; boundary=X\r\n\r\n--X\r\nContent-Type: text/plain\r\n\r\nhello\r\n")
		for i := range 400 {
			fmt.Fprintf(&b, "--X\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"s%d.xlsx\"\r\nContent-Transfer-Encoding: base64\r\n\r\n%s\r\n", i, att)
		}
		b.WriteString("--X--\r\n")
		return "many.eml", []byte(b.String())
	},
	// XML entities declared in a DOCTYPE, each ten of the previous.
	"docx entity expansion": func(t testing.TB) (string, []byte) {
		var dt strings.Builder
		dt.WriteString(`<!DOCTYPE d [<!ENTITY e0 "lol">`)
		for i := 1; i < 10; i++ {
			fmt.Fprintf(&dt, `<!ENTITY e%d "%s">`, i, strings.Repeat(fmt.Sprintf("&e%d;", i-1), 10))
		}
		dt.WriteString(`]>`)
		return "lol.docx", parsetest.Zip(t, map[string]parsetest.Part{"word/document.xml": {
			Prefix: []byte(`<?xml version="1.0"?>` + dt.String() + `<w:document><w:body><w:p><w:r><w:t>&e9;</w:t></w:r></w:p></w:body></w:document>`)}})
	},
	// HTML entities (the longest expansions) and tables nested in cells,
	// whose text each enclosing row repeats.
	"html entities x nested tables": func(t testing.TB) (string, []byte) {
		cell := strings.Repeat("&NotNestedGreaterGreater;&amp;", 1<<15)
		open := strings.Repeat("<table><tr><td>", 60)
		return "deep.html", []byte("<html><body>" + open + cell + strings.Repeat("</td></tr></table>", 60) + "</body></html>")
	},
	// Multipart nested in multipart to the depth limit, text at each level.
	"mbox nested multipart": func(t testing.TB) (string, []byte) {
		var b strings.Builder
		for i := range 200 {
			fmt.Fprintf(&b, "From x\nFrom: a@b\nSubject: m%d\nContent-Type: multipart/mixed; boundary=B0\n\n", i)
			for d := range 15 {
				fmt.Fprintf(&b, "--B%d\nContent-Type: multipart/mixed; boundary=B%d\n\n", d, d+1)
			}
			b.WriteString("--B15\nContent-Type: text/plain\n\n" + strings.Repeat("word ", 20000) + "\n")
			for d := 15; d >= 0; d-- {
				fmt.Fprintf(&b, "--B%d--\n", d)
			}
			b.WriteString("\n")
		}
		return "deep.mbox", []byte(b.String())
	},
}

// sharedSheet is a workbook with one 1 MiB shared string and rows (XML)
// repeated n times.
func sharedSheet(t testing.TB, rows string, n int) []byte {
	return parsetest.Zip(t, map[string]parsetest.Part{
		"xl/workbook.xml":            {Prefix: []byte(`<workbook><sheets><sheet name="S" r:id="rId1" xmlns:r="r"/></sheets></workbook>`)},
		"xl/_rels/workbook.xml.rels": {Prefix: []byte(`<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>`)},
		"xl/sharedStrings.xml":       {Prefix: []byte(`<sst><si><t>`), Unit: bytes.Repeat([]byte("amplified "), 1<<20/10), N: 1, Suffix: []byte(`</t></si></sst>`)},
		"xl/worksheets/sheet1.xml":   {Prefix: []byte("<worksheet><sheetData>"), Unit: []byte(rows), N: n, Suffix: []byte("</sheetData></worksheet>")},
	})
}

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
	path, data := amplifiers[name](t)
	runtime.GC()
	before := resetPeak(t)
	d, err := ParseContext(context.Background(), path, data, parse.Limits{MaxText: amplifyText})
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
