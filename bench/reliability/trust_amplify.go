package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/autorag/autorag/internal/amplify"
)

// amplifyCap is the address-space cap of each refresh of an amplifier.
const amplifyCap = 4 << 30

// textCap is the parsers' default text cap (parse.DefaultLimits.MaxText).
const textCap = 32 << 20

// amplification refreshes a root holding one amplifier at a time under an
// address-space cap and checks that the refresh's peak RSS exceeds that of
// a refresh of a plain root by at most 8 times the text cap; the
// refresh must finish (the file fails or indexes, nothing else).
func (h *harness) amplification() outcome {
	o := outcome{Scenario: fmt.Sprintf("parsers × amplification inputs, refresh under a %d GiB address-space cap, peak RSS ≤ baseline + 8 × the %d MiB text cap", amplifyCap>>30, textCap>>20)}
	base, err := h.measuredRoot("plain.md", []byte("# Plain\n\nheronword\n"))
	if err != nil {
		o.fail("baseline: %v", err)
		return o
	}
	o.note("baseline refresh %d MiB", base>>10)
	// The mail case: 300 attachments, each expanding to 30 MiB of text,
	// just under the text cap. The PDF cases: an object stream inflating
	// to 768 MiB, a page content to 256 MiB (past 4 x the text cap), one
	// 4 MiB content drawn by 2,000 pages.
	for _, a := range append(amplify.Inputs(300, 30), amplify.PDFInputs(768, 256)...) {
		o.Trials++
		data, err := a.Data()
		if err != nil {
			o.fail("%s: %v", a.Name, err)
			continue
		}
		rss, err := h.measuredRoot(a.File, data)
		switch {
		case err != nil:
			o.fail("%s: %v", a.Name, err)
		case rss-base > 8*textCap>>10:
			o.fail("%s (%d KB on disk): peak RSS %d MiB, over the bound", a.Name, len(data)>>10, rss>>10)
		default:
			o.note("%s: %d MiB", a.Name, rss>>10)
		}
	}
	return o
}

// measuredRoot refreshes a new root holding the one file and returns the
// refresh's peak RSS (KiB).
func (h *harness) measuredRoot(name string, data []byte) (int64, error) {
	root, err := os.MkdirTemp(h.work, "amplify-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(root)
	if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
		return 0, err
	}
	r, rss := h.cli.runMeasured(amplifyCap, "--root", root, "refresh", "--json")
	if r.code != 0 {
		return rss, fmt.Errorf("refresh: %s", r)
	}
	return rss, nil
}
