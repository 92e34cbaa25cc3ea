package main

import (
	"fmt"
	"strings"
	"time"
)

// report is the whole benchmark run, rendered as markdown.
type report struct {
	Machine   machineInfo
	Command   string
	Runs      int
	Caps      capabilities
	Floors    []result
	Targets   []targetReport
	Took      time.Duration
	Aborted   string // why the run stopped early, if it did
	EnvPassed []string
	Only      string // the -only regexp, if any
	WrapErr   string // why rsswrap could not be built; RSS is then inflated
}

func (r *report) Markdown() string {
	var b strings.Builder
	b.WriteString("# autorag whole-process benchmarks\n\n")
	b.WriteString("Every number is the wall clock of one `autorag` process, from fork to exit, as a\n")
	b.WriteString("script or an editor would see it; peak RSS is the process's `ru_maxrss` (see Method for how both are taken).\n")
	fmt.Fprintf(&b, "Medians over up to %d runs (first run discarded as warm-up except for first refresh and\n", r.Runs)
	b.WriteString("rebuild, which redo all the work every run and run fewer times on big trees).\n")
	if r.Only != "" {
		fmt.Fprintf(&b, "Only the scenarios matching `-only %s` were run (floors always run); when that leaves out\n", r.Only)
		b.WriteString("first refresh, one unmeasured refresh builds the index first.\n")
	}
	if r.WrapErr != "" {
		b.WriteString("\n**Peak RSS is inflated in this run**: the wrapper that measures it could not be built, so each\n")
		b.WriteString("figure includes the harness's own memory (see Method).\n")
	}
	b.WriteString("\n")

	b.WriteString("## Machine\n\n| | |\n|---|---|\n")
	m := r.Machine
	rows := [][2]string{
		{"CPU", m.CPU}, {"cores", fmt.Sprint(m.Cores)}, {"memory", m.Memory}, {"Go", m.GoVersion},
		{"kernel", m.Kernel}, {"work dir filesystem", m.Filesystem}, {"autorag", m.Autorag},
		{"commit", m.Commit}, {"date", m.Date}, {"total bench time", r.Took.Round(time.Second).String()},
	}
	for _, row := range rows {
		fmt.Fprintf(&b, "| %s | %s |\n", row[0], mdEscape(row[1]))
	}
	fmt.Fprintf(&b, "\nCLI features detected from `autorag query --help`: `--no-cache` %s, `--mode` %s.\n",
		yesNo(r.Caps.NoCache), yesNo(r.Caps.Mode))
	if len(r.EnvPassed) > 0 {
		fmt.Fprintf(&b, "AUTORAG_* environment passed to every run: `%s`.\n", strings.Join(r.EnvPassed, "`, `"))
	}
	if r.Aborted != "" {
		fmt.Fprintf(&b, "\n**The run stopped early: %s.**\n", mdEscape(r.Aborted))
	}

	b.WriteString("\n## Floors\n\nWhat no command can beat on this machine: starting a process and walking the tree.\n")
	b.WriteString("The tree walk (W) is in each corpus table.\n\n")
	writeTable(&b, r.Floors)

	for _, t := range r.Targets {
		fmt.Fprintf(&b, "\n## %s\n\n", t.Target.Title)
		if t.Err != "" {
			fmt.Fprintf(&b, "Not measured: %s\n", mdEscape(t.Err))
			continue
		}
		fmt.Fprintf(&b, "%d files, %s; %s. Selective query `%s`, broad query `%s`.\n\n",
			t.Stats.Files, formatBytes(t.Stats.Bytes), t.Target.Origin, t.Target.Selective, t.Target.Broad)
		writeTable(&b, t.Results)
	}

	b.WriteString("\n## Method and reproduction\n\n")
	if r.WrapErr == "" {
		b.WriteString("- Every process, floors included, is started by `rsswrap` (`bench/harness/internal/rsswrap`, built\n")
		b.WriteString("  into the work dir). It times the child from just before its fork to `wait4` returning, so neither\n")
		b.WriteString("  its own nor the harness's start-up is counted, and reports the child's `ru_maxrss`. On Linux that\n")
		b.WriteString("  figure includes the memory the child was forked from, which is why the harness does not fork\n")
		b.WriteString("  the children itself: the wrapper's own resident set (about 2 MB) is the smallest peak RSS any\n")
		b.WriteString("  row can show, so small processes such as the hello-world may read a little high.\n")
	} else {
		fmt.Fprintf(&b, "- `rsswrap` could not be built (%s), so the harness timed each process itself,\n", mdEscape(r.WrapErr))
		b.WriteString("  from just before the fork to `Wait` returning, and took peak RSS from the child's `ru_maxrss`. On\n")
		b.WriteString("  Linux that includes the harness's own high-water mark at fork (it survives `execve`), so every\n")
		b.WriteString("  peak RSS here is at least the harness's size: read it as an upper bound.\n")
	}
	b.WriteString("- Each corpus is copied to a scratch directory; all scenarios run on the copy, in table order, and\n")
	b.WriteString("  the first refresh deletes `.autorag` before every run. The page cache is warm (the copy was just\n")
	b.WriteString("  written), so first-refresh numbers exclude cold disk reads.\n")
	b.WriteString("- Edits rewrite a file as its original text plus a revision sentence that differs on every edit.\n")
	b.WriteString("  `refresh --paths` edits one file and names it (relative to the root, which is the working directory).\n")
	b.WriteString("- Every run must exit 0 and print a JSON envelope with `ok: true`; the notes column counts the\n")
	b.WriteString("  outcomes seen. A scenario stops at its first bad run and is reported as failed. ⚠ marks runs\n")
	b.WriteString("  that succeeded but did not do what the scenario means to measure (an edit reported as\n")
	b.WriteString("  `unchanged`, a no-op that was not, a repeated query not served from the cache, a planted\n")
	b.WriteString("  term not found in exactly two files).\n")
	b.WriteString("- Where the envelope has `stages_ms` (refresh), the notes end with each stage's median over the\n")
	b.WriteString("  measured runs, in ms (`scan 6.1, build 12.3, …`); the stderr log has the same line.\n")
	b.WriteString("- Generated corpora are `doc-NNNNN.md` files (40 paragraphs, about 6 KB) from a fixed seed, cached\n")
	b.WriteString("  under the work directory; rare terms `zorblaxNNNNN` each occur in exactly two documents.\n\n")
	b.WriteString("Reproduce with `make bench-cli`, or exactly this run from the repository root:\n\n")
	fmt.Fprintf(&b, "```sh\n%s\n```\n", r.Command)
	return b.String()
}

func writeTable(b *strings.Builder, results []result) {
	b.WriteString("| scenario | runs | median | p10–p90 | peak RSS | notes |\n|---|---:|---:|---:|---:|---|\n")
	for _, r := range results {
		if r.Err != "" {
			fmt.Fprintf(b, "| %s | — | **failed** | — | — | %s |\n", mdEscape(r.Name), mdEscape(r.Err))
			continue
		}
		s := r.Summary
		fmt.Fprintf(b, "| %s | %d | %s | %s–%s | %s | %s |\n", mdEscape(r.Name), s.N, formatDuration(s.Median),
			formatDuration(s.P10), formatDuration(s.P90), formatRSS(s.PeakRSSKB), mdEscape(r.notes()))
	}
}

// notes is the notes column: the outcomes seen, then the stage medians.
func (r result) notes() string {
	st := formatStages(r.Stages)
	switch {
	case st == "":
		return r.Notes
	case r.Notes == "":
		return st
	default:
		return r.Notes + "; " + st
	}
}

// formatDuration prints milliseconds with precision that suits the size.
func formatDuration(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case ms < 10:
		return fmt.Sprintf("%.2f ms", ms)
	case ms < 1000:
		return fmt.Sprintf("%.1f ms", ms)
	default:
		return fmt.Sprintf("%.2f s", ms/1000)
	}
}

func formatRSS(kb int64) string {
	if kb <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f MB", float64(kb)/1024)
}

func formatBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	default:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
}

// mdEscape keeps a cell on one line and its pipes out of the table syntax.
func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// groupDigits renders 16000 as "16,000".
func groupDigits(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
