package main

import (
	"errors"
	"fmt"

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

// hint is what to do next after an error of class code, stated for the
// root as it is now.
func (g *globals) hint(code string) string {
	switch code {
	case envelope.CodeInterrupted:
		return "nothing was committed; " + g.rootState() + "; run the command again"
	case envelope.CodeFailed:
		return "nothing was committed; " + g.rootState() + "; fix the cause above and run again (`autorag index verify` checks the index, `autorag index rebuild` rebuilds it)"
	}
	return hints[code]
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
