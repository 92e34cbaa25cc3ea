// Command reliability is the harness behind `make reliability`: it builds
// the autorag CLI and tries hard to break its promises with real processes
// (kill -9 at every failpoint and at random instants, contention with a
// kill loop, a full disk, a read-only .autorag, a misbehaving embedding
// provider), then writes docs/RELIABILITY.md: one row per scenario with its
// trials and failures. The go tests of this package run every scenario
// small inside `make test`.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func itoa(n int) string { return strconv.Itoa(n) }

// config sizes a run.
type config struct {
	matrixFiles  int           // files of the crash-matrix tree
	randomFiles  int           // files of the random-kill tree
	randomTrials int           // random kill -9 trials
	contention   time.Duration // length of the contention run
	diskFiles    int           // files on the tmpfs
	providerSize int           // files of the provider scenarios
	hostileFiles int           // files in one directory
	overflows    int           // watch overflow trials
	rerankRounds int           // rounds of every rerank fault on every surface
	races        int           // rounds of 10 concurrent writers per user-file edit
	mappedTrials int           // trials of each surface and damage of a mapped file
	cardinalMiB  int           // size of each high-cardinality text
	trustOnly    bool          // run only the trust scenarios
	row          string        // with trustOnly: run only this trust row (a try, not a report)
}

var fullRun = config{matrixFiles: 600, randomFiles: 2000, randomTrials: 50, contention: 60 * time.Second, diskFiles: 300, providerSize: 200, hostileFiles: 100000, overflows: 3, races: 5, rerankRounds: 5, mappedTrials: 3, cardinalMiB: 11}

func main() {
	out := flag.String("out", "docs/RELIABILITY.md", "report file (- for stdout)")
	bin := flag.String("bin", "", "autorag binary (default: build ./cmd/autorag)")
	trials := flag.Int("trials", fullRun.randomTrials, "random kill -9 trials")
	files := flag.Int("files", fullRun.randomFiles, "files of the random-kill tree")
	dur := flag.Duration("contention", fullRun.contention, "length of the contention run")
	seed := flag.Uint64("seed", 1, "seed of the generated corpora and random choices")
	only := flag.String("only", "", `run only these scenarios: "trust" (paths, parsers, servers, watch)`)
	row := flag.String("row", "", "with -only trust: run only this row (paths, casefold, amplify, servers, mcpread, overflow, rootgone, compact, mapped, cardinality, inputs, weaviate, scoped, userfiles, models, secrets, rerank) and print the report")
	flag.Parse()
	cfg := fullRun
	cfg.row = *row
	cfg.randomTrials, cfg.randomFiles, cfg.contention = *trials, *files, *dur
	cfg.trustOnly = *only == "trust"
	if *only != "" && !cfg.trustOnly {
		fmt.Fprintf(os.Stderr, "reliability: -only %q: want trust\n", *only)
		os.Exit(2)
	}
	if err := run(cfg, *bin, *out, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "reliability:", err)
		os.Exit(1)
	}
}

func run(cfg config, bin, out string, seed uint64) error {
	work, err := os.MkdirTemp("", "autorag-reliability-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	if bin == "" {
		if bin, err = buildCLI(".", work); err != nil {
			return err
		}
	}
	h := &harness{cli: &cli{bin: bin}, work: work, log: os.Stderr, seed: seed}
	// An interrupted run still unmounts its tmpfs and removes its files.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		unmount(filepath.Join(work, "tmpfs"))
		os.RemoveAll(work)
		os.Exit(130)
	}()
	start := time.Now()
	var core []outcome
	if !cfg.trustOnly {
		core = h.all(cfg)
	}
	tstart := time.Now()
	trust := h.trust(cfg)
	section := renderTrust(trust, time.Since(tstart))
	rows := append(core, trust...)
	var report string
	if cfg.trustOnly {
		report = replaceTrust(out, section)
	} else {
		report = renderReport(core, cfg, seed, time.Since(start)) + section
	}
	if out == "-" {
		_, err = os.Stdout.WriteString(report)
	} else {
		err = os.WriteFile(out, []byte(report), 0o644)
	}
	if err != nil {
		return err
	}
	for _, r := range rows {
		if r.Failures > 0 {
			return fmt.Errorf("%s: %d failures (see %s)", r.Scenario, r.Failures, out)
		}
	}
	return nil
}

// all runs every scenario in order.
func (h *harness) all(cfg config) []outcome {
	var rows []outcome
	add := func(o outcome) {
		h.logf("%s: %d trials, %d failures %s %v", o.Scenario, o.Trials, o.Failures, o.Skipped, o.Notes)
		rows = append(rows, o)
	}
	small, err := h.newCommitted("matrix", cfg.matrixFiles)
	if err != nil {
		return []outcome{{Scenario: "setup", Failures: 1, Notes: []string{err.Error()}}}
	}
	points := refreshPoints()
	add(h.crashMatrix(small, []string{"refresh"}, "kill", points))
	add(h.crashMatrix(small, []string{"refresh"}, "error", points))
	add(h.crashMatrix(small, []string{"index", "rebuild"}, "kill", points))
	add(h.crashMatrix(small, []string{"index", "rebuild"}, "error", points))
	add(h.resetCrashes(small))
	add(h.readOnly(small))
	add(h.contention(small, 8, 8, cfg.contention))
	os.RemoveAll(small.root)
	big, err := h.newCommitted("random", cfg.randomFiles)
	if err != nil {
		add(outcome{Scenario: "random kills setup", Failures: 1, Notes: []string{err.Error()}})
	} else {
		add(h.randomKills(big, cfg.randomTrials))
		os.RemoveAll(big.root)
	}
	add(h.diskFull(cfg.diskFiles))
	add(h.hostileScale(cfg.hostileFiles, 200))
	add(h.providerFaults(cfg.providerSize, nil))
	return rows
}

// trust runs the scenarios of the surfaces added after the core: every
// way a path enters, the parsers' amplification inputs, the servers'
// endpoints, watch overflows, the Weaviate index's identity (skipped
// without AUTORAG_WEAVIATE_URL).
func (h *harness) trust(cfg config) []outcome {
	var rows []outcome
	url := os.Getenv("AUTORAG_WEAVIATE_URL")
	for _, s := range []struct {
		name string
		f    func() outcome
	}{{"paths", h.pathEntries}, {"casefold", h.caseInsensitive}, {"amplify", h.amplification}, {"servers", h.serverAbuse}, {"mcpread", h.mcpRead},
		{"overflow", func() outcome { return h.watchOverflow(cfg.overflows) }}, {"rootgone", h.watchRootGone}, {"compact", h.idleCompaction},
		{"mapped", func() outcome { return h.mappedFault(cfg.mappedTrials) }}, {"cardinality", func() outcome { return h.cardinality(cfg.cardinalMiB) }},
		{"inputs", func() outcome { return h.serverInputs(cfg.mappedTrials) }},
		{"weaviate", func() outcome { return h.weaviateOwn(url) }}, {"scoped", h.weaviateScoped},
		{"userfiles", func() outcome { return h.userFiles(cfg.races) }}, {"models", h.modelPulls}, {"secrets", h.urlSecrets},
		{"rerank", func() outcome { return h.rerankFailures(cfg.rerankRounds) }}} {
		if cfg.row != "" && cfg.row != s.name {
			continue
		}
		o := s.f()
		h.logf("%s: %d trials, %d failures %s %v", o.Scenario, o.Trials, o.Failures, o.Skipped, o.Notes)
		rows = append(rows, o)
	}
	return rows
}

// trustHeading starts the section of the trust scenarios.
const trustHeading = "\n## Trust classes\n"

// renderTrust writes the section of the trust scenarios.
func renderTrust(rows []outcome, took time.Duration) string {
	s := trustHeading + "\nThe surfaces added after the core, each class tried every way it can be reached " +
		"(`go run ./bench/reliability -only trust` runs this section alone and replaces it here). " +
		"Every command and request runs under a deadline: a hang is a failure.\n\n"
	s += fmt.Sprintf("Run: %s, took %s.\n\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"), took.Round(time.Second))
	return s + renderRows(rows)
}

// replaceTrust is the report at out with its trust section replaced by
// section (appended when it has none).
func replaceTrust(out, section string) string {
	b, err := os.ReadFile(out)
	if err != nil {
		return "# Reliability\n" + section
	}
	old := string(b)
	if i := strings.Index(old, trustHeading); i >= 0 {
		old = old[:i]
	}
	return strings.TrimRight(old, "\n") + "\n" + section
}

// renderReport writes the table of docs/RELIABILITY.md.
func renderReport(rows []outcome, cfg config, seed uint64, took time.Duration) string {
	s := "# Reliability\n\nProduced by `make reliability` (`go run ./bench/reliability`), not by hand. " +
		"Every trial runs the real `autorag` binary as separate processes. After every crash or fault the harness checks " +
		"that queries answer exactly as the old or the new corpus (compared with a reference build of that corpus), " +
		"that `status` reports the committed fingerprint and whether sources changed, that `index verify` passes, " +
		"that the next refresh converges to a fresh build and that no garbage (uncommitted generation, temporary file) remains.\n\n"
	s += fmt.Sprintf("Run: %s, seed %d, %s on %d-file and %d-file generated trees, took %s.\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), seed, "crash matrix and random kills", cfg.matrixFiles, cfg.randomFiles, took.Round(time.Second))
	return s + renderRows(rows)
}

// renderRows is the table of rows with its total.
func renderRows(rows []outcome) string {
	s := "| scenario | trials | failures | notes |\n|---|---:|---:|---|\n"
	total, failed := 0, 0
	for _, r := range rows {
		notes := r.Skipped
		if notes != "" {
			notes = "skipped: " + notes
		}
		for _, n := range r.Notes {
			if notes != "" {
				notes += "; "
			}
			notes += n
		}
		s += fmt.Sprintf("| %s | %d | %d | %s |\n", r.Scenario, r.Trials, r.Failures, escapeCell(notes))
		total += r.Trials
		failed += r.Failures
	}
	s += fmt.Sprintf("| **total** | **%d** | **%d** | |\n", total, failed)
	return s
}

func escapeCell(s string) string {
	out := []rune{}
	for _, r := range s {
		switch r {
		case '|':
			out = append(out, '\\', '|')
		case '\n':
			out = append(out, ' ')
		default:
			out = append(out, r)
		}
	}
	return string(out)
}
