package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/autorag/autorag/engine"
)

// globals are the flags every command shares.
type globals struct {
	roots   []string // --root, repeatable for mcp and serve
	json    bool
	quiet   bool
	verbose bool

	stdin          io.Reader
	stdout, stderr io.Writer
	settings       settingFlags
}

// run is the whole CLI: it parses args, runs the command and maps its error
// to an exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if versionOnly(args) {
		// What cobra prints (SetVersionTemplate below), without building
		// the command tree: the call scripts make to see the binary works.
		fmt.Fprintln(stdout, version())
		return exitOK
	}
	g := &globals{stdin: stdin, stdout: stdout, stderr: stderr}
	root := newRootCmdFor(g, args)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	var rerr *runError
	if !errors.As(err, &rerr) {
		// cobra's own errors: unknown command or flag, bad arguments
		err = cobraError(cmd, err)
	} else {
		err = rerr.err
	}
	return report(err, g.json, g.hinter(cmd), stdout, stderr)
}

// runError marks an error returned by a command's own work, as opposed to
// cobra's parsing errors.
type runError struct{ err error }

func (r *runError) Error() string { return r.err.Error() }

func wrapRun(f func(cmd *cobra.Command, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if err := f(cmd, args); err != nil {
			return &runError{err: err}
		}
		return nil
	}
}

// commands are the constructors of the subcommands, by name.
var commands = []struct {
	name string
	make func(*globals) *cobra.Command
}{
	{"refresh", newRefreshCmd}, {"upgrade", newUpgradeCmd}, {"query", newQueryCmd}, {"status", newStatusCmd}, {"index", newIndexCmd},
	{"mcp", newMCPCmd}, {"serve", newServeCmd}, {"watch", newWatchCmd}, {"config", newConfigCmd},
	{"eval", newEvalCmd}, {"models", newModelsCmd}, {"agents", newAgentsCmd}, {"workspace", newWorkspaceCmd},
}

// newRootCmdFor is the command tree args need: when args start with a
// command's name, the root with that command only (what cobra then does
// is the same: it finds the command by that name, and help, flags and
// errors are the command's own), else the whole tree.
func newRootCmdFor(g *globals, args []string) *cobra.Command {
	if len(args) > 0 {
		for _, c := range commands {
			if args[0] == c.name {
				root := newBareRootCmd(g)
				root.AddCommand(c.make(g))
				return root
			}
		}
	}
	return newRootCmd(g)
}

// newRootCmd is the whole command tree.
func newRootCmd(g *globals) *cobra.Command {
	root := newBareRootCmd(g)
	for _, c := range commands {
		root.AddCommand(c.make(g))
	}
	return root
}

// newBareRootCmd is the root command and the flags every command shares.
func newBareRootCmd(g *globals) *cobra.Command {
	root := &cobra.Command{
		Use:           "autorag",
		Short:         "Local hybrid search over a folder of documents and code",
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("{{.Version}}\n")
	pf := root.PersistentFlags()
	pf.StringArrayVar(&g.roots, "root", nil, "corpus root (default: nearest ancestor holding .autorag/, else the working directory; env AUTORAG_ROOT); mcp and serve take several")
	pf.BoolVar(&g.json, "json", false, "print one JSON object on stdout")
	pf.BoolVarP(&g.quiet, "quiet", "q", false, "print nothing but errors")
	pf.BoolVarP(&g.verbose, "verbose", "v", false, "print more detail")
	return root
}

// versionOnly says whether args are just --version, which run answers
// before building any command.
func versionOnly(args []string) bool { return len(args) == 1 && args[0] == "--version" }

// version reports the module version and VCS revision from the build info.
// It is parsed once.
var version = sync.OnceValue(func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "autorag (unknown)"
	}
	v := bi.Main.Version
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" {
		return "autorag " + v
	}
	return fmt.Sprintf("autorag %s (%s%s)", v, rev, dirty)
})

// resolveRoot applies --root, AUTORAG_ROOT, the nearest ancestor holding
// .autorag/, else the working directory.
func (g *globals) resolveRoot() (string, error) {
	r, _, err := g.resolveRootFrom()
	return r, err
}

// resolveRootFrom is resolveRoot that also says which rule chose the root.
func (g *globals) resolveRootFrom() (root, from string, err error) {
	switch len(g.roots) {
	case 0:
	case 1:
		r, err := checkRoot(g.roots[0])
		return r, "--root", err
	default:
		return "", "", usagef("--root given %d times: only mcp and serve serve several roots", len(g.roots))
	}
	if r := os.Getenv("AUTORAG_ROOT"); r != "" {
		r, err := checkRoot(r)
		return r, "AUTORAG_ROOT", err
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", "", fmt.Errorf("working directory: %w", err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(filepath.Join(d, engine.DirName)); err == nil && fi.IsDir() {
			return d, "nearest directory holding " + engine.DirName, nil
		}
		if filepath.Dir(d) == d {
			return wd, "working directory", nil
		}
	}
}

func checkRoot(r string) (string, error) {
	fi, err := os.Stat(r)
	if err != nil {
		return "", usagef("root %s: %w (pass an existing directory with --root or AUTORAG_ROOT)", r, err)
	}
	if !fi.IsDir() {
		return "", usagef("root %s is not a directory (pass the folder to index with --root or AUTORAG_ROOT)", r)
	}
	return filepath.Abs(r)
}

// engine opens the engine for the resolved root with resolved settings.
func (g *globals) engine() (*engine.Engine, error) {
	root, err := g.resolveRoot()
	if err != nil {
		return nil, err
	}
	return g.engineAt(root)
}

// engineAt opens the engine for root (absolute, checked) with resolved
// settings.
func (g *globals) engineAt(root string) (*engine.Engine, error) {
	l, err := engine.NewLayout(root)
	if err != nil {
		return nil, err
	}
	s, err := g.settings.resolve(l.ConfigPath())
	if err != nil {
		return nil, err
	}
	e, err := engine.New(root, s)
	if err != nil {
		return nil, &usageError{err: err}
	}
	return e, nil
}

// commandLine is recorded as the lock holder's command.
func commandLine() string { return strings.Join(os.Args, " ") }

// isTerminal reports whether a stream (stdin, stdout or stderr) is a
// terminal: progress goes only there, and reset asks only there. A
// character device such as /dev/null is not one.
func isTerminal(stream any) bool {
	f, ok := stream.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd()))
}
