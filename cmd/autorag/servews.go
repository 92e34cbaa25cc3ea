package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/fingerprint"
)

// serverRoot is one root a server serves and how --watch keeps it live.
type serverRoot struct {
	name           string
	e              *engine.Engine
	watch          bool
	poll, debounce time.Duration // 0: the server's
}

// serverRoots are the roots of --workspace (from the workspace file) and
// of every --root, else the one root the working directory resolves to.
func (g *globals) serverRoots(o *serverOptions) ([]serverRoot, error) {
	var out []serverRoot
	taken := map[string]bool{}
	var seen sameDirs
	if len(o.workspaces) > 0 {
		f, err := loadWorkspace()
		if err != nil {
			return nil, err
		}
		sel, err := f.Select(o.workspaces)
		if err != nil {
			return nil, usagef("%w", err)
		}
		for _, r := range sel {
			abs, err := checkRoot(r.Path)
			if err != nil {
				return nil, usagef("workspace root %s: %w", r.Name, err)
			}
			if !seen.add(abs) {
				continue
			}
			e, err := g.engineAt(abs)
			if err != nil {
				return nil, err
			}
			taken[r.Name] = true
			out = append(out, serverRoot{name: r.Name, e: e, watch: r.Watched(), poll: r.PollEvery(), debounce: r.DebounceFor()})
		}
	}
	roots := g.roots
	if len(roots) == 0 && len(out) == 0 {
		r, err := g.resolveRoot()
		if err != nil {
			return nil, err
		}
		roots = []string{r}
	}
	for _, r := range roots {
		abs, err := checkRoot(r)
		if err != nil {
			return nil, err
		}
		if !seen.add(abs) {
			continue
		}
		e, err := g.engineAt(abs)
		if err != nil {
			return nil, err
		}
		out = append(out, serverRoot{name: uniqueName(agentapi.RootName(abs), taken), e: e, watch: true})
	}
	return out, nil
}

// noteRoots notes, at the start of a server, each root whose chosen
// embedder differs from the one its index answers with.
func (g *globals) noteRoots(roots []serverRoot) {
	if g.quiet {
		return
	}
	for _, r := range roots {
		if !r.e.Settings.EmbedderChosen {
			continue
		}
		if sc, err := fingerprint.ReadSidecar(r.e.Layout.SidecarPath()); err == nil {
			if note := g.embedderNote(r.e, sc); note != "" {
				fmt.Fprintf(g.stderr, "autorag: note: root %s: %s\n", r.name, note)
			}
		}
	}
}

// sameDirs are the directories a server serves, by identity (device and
// inode): a root named again, under another path or through a symlink,
// is served once, as its first name.
type sameDirs []os.FileInfo

// add records dir and reports whether it is new.
func (s *sameDirs) add(dir string) bool {
	fi, err := os.Stat(dir)
	if err != nil {
		return true // checkRoot stated it a moment ago; opening it will say
	}
	for _, old := range *s {
		if os.SameFile(old, fi) {
			return false
		}
	}
	*s = append(*s, fi)
	return true
}

// uniqueName is name, or name-2, name-3, ... when taken; it takes it.
func uniqueName(name string, taken map[string]bool) string {
	n := name
	for i := 2; taken[n]; i++ {
		n = name + "-" + strconv.Itoa(i)
	}
	taken[n] = true
	return n
}

// newWorkspace opens the roots of a long-running server.
func newWorkspace(g *globals, o *serverOptions) (*agentapi.Workspace, []serverRoot, error) {
	if o.token == "" {
		o.token = os.Getenv("AUTORAG_TOKEN")
	}
	if o.idleClose < 0 || o.watchParallel < 1 {
		return nil, nil, usagef("--idle-close must not be negative and --watch-parallel must be at least 1")
	}
	roots, err := g.serverRoots(o)
	if err != nil {
		return nil, nil, err
	}
	capBytes, err := queryCacheCap()
	if err != nil {
		return nil, nil, err
	}
	g.noteRoots(roots)
	raiseHeapFloor()
	ms := make([]agentapi.Member, len(roots))
	for i, r := range roots {
		ms[i] = agentapi.Member{Name: r.name, Engine: r.e}
	}
	// The query cache's bound is the server's, shared among its roots.
	def, err := defaultRoot(o.defaultRoot, roots)
	if err != nil {
		return nil, nil, err
	}
	ws, err := agentapi.NewWorkspace(ms, agentapi.WorkspaceOptions{
		Default:   def,
		Options:   agentapi.Options{CacheBytes: capBytes / int64(len(ms)), StaleInterval: o.staleInterval, Command: commandLine()},
		IdleClose: o.idleClose,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("workspace: %w", err)
	}
	return ws, roots, nil
}

// defaultRoot resolves --default-root: "cwd" is the root holding the
// working directory (the deepest), or every root when none does.
func defaultRoot(flag string, roots []serverRoot) (string, error) {
	if flag != "cwd" {
		return flag, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	best, depth := "", -1
	for _, r := range roots {
		rel, err := filepath.Rel(r.e.Layout.Root, wd)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if d := len(r.e.Layout.Root); d > depth {
			best, depth = r.name, d
		}
	}
	return best, nil
}
