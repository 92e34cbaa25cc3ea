// Package failpoint stops or fails the process at named steps of the
// commit path, for the crash, fault and contention tests.
//
// AUTORAG_FAILPOINT holds a comma-separated list of "NAME" or "NAME:MODE"
// entries. Modes:
//
//	kill   (the default) the process sends itself SIGKILL at NAME
//	error  Hit returns an error wrapping ErrInjected; the caller fails the
//	       step as it would on a real I/O error
//	pause  the process says "autorag: paused at NAME" on stderr and blocks
//	       until it is killed
//	delay=DURATION
//	       the process says "autorag: delaying at NAME" on stderr, sleeps
//	       for DURATION (time.ParseDuration) and goes on, to widen a race
//
// The variable is read once per process; when it is unset Hit costs one
// load of a cached value. Names are listed in Points.
package failpoint

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Env names the environment variable read by Hit.
const Env = "AUTORAG_FAILPOINT"

// ErrInjected is wrapped by the error Hit returns in error mode.
var ErrInjected = errors.New("injected failure")

// Points are the named steps of a refresh or an index rebuild, in the
// order they are reached, then those of index reset and index verify, and
// of a staged embedding's upgrade (package upgrade).
// "after-rename-<file>" is hit by every atomic write right after its rename
// and before the directory fsync (in error mode the write reports a failed
// directory sync: the new content is in place).
var Points = []string{
	"scan-after-walk",                 // tree walked, changed files not yet read
	"after-mirror",                    // mirror packs published, manifest not yet saved
	"after-rename-generation.counter", // generation name handed out
	"during-embedding",                // after the first batch of new embeddings
	"mid-generation",                  // first bleve batch written to the new generation
	"after-bleve",                     // bleve index of the new generation closed
	"after-vectors",                   // vector index of the new generation written
	"after-files-log",                 // file table written as the base's log plus one record (not when written whole)
	"after-files",                     // file table written
	"after-generation",                // generation fsynced
	"after-embed-cache",               // embedding cache flushed
	"before-sidecar",                  // sidecar about to be renamed into place
	"before-rename-fingerprint.json",  // sidecar written and fsynced, not yet renamed
	"after-rename-fingerprint.json",   // sidecar renamed, directory not synced
	"after-sidecar",                   // commit done
	"after-rename-manifest.bin",       // manifest renamed after the commit
	"after-append-manifest.log",       // manifest change appended to its log after the commit
	"after-manifest",                  // manifest saved
	"during-gc",                       // first garbage generation removed
	"after-gc",                        // generations collected, mirror not yet
	"after-mirror-gc",                 // mirror collected, caches not yet
	"reset-after-sidecar",             // index reset: sidecar removed
	"reset-after-upgrade",             // index reset: staged embedding's record removed
	"reset-after-index",               // index reset: generations removed
	"reset-after-mirror",              // index reset: mirror removed
	"verify-after-sidecar",            // index verify: sidecar read, artifacts not yet
	"upgrade-group",                   // staged embedding: a group's vectors flushed to the cache and recorded
}

type kind int

const (
	kill kind = iota
	fail
	pause
	delay
)

type mode struct {
	kind  kind
	sleep time.Duration
}

// active holds the parsed list: from the environment, read once, or from
// Set. Nil (the usual case) makes Hit one atomic load after the first call.
var (
	active  atomic.Pointer[map[string]mode]
	fromEnv sync.Once
)

func points() *map[string]mode {
	fromEnv.Do(func() {
		if m := parse(os.Getenv(Env)); m != nil {
			active.Store(&m)
		}
	})
	return active.Load()
}

func parse(v string) map[string]mode {
	if v == "" {
		return nil
	}
	m := map[string]mode{}
	for _, entry := range strings.Split(v, ",") {
		name, md, _ := strings.Cut(strings.TrimSpace(entry), ":")
		switch {
		case md == "error":
			m[name] = mode{kind: fail}
		case md == "pause":
			m[name] = mode{kind: pause}
		case strings.HasPrefix(md, "delay="):
			d, err := time.ParseDuration(strings.TrimPrefix(md, "delay="))
			if err != nil {
				d = time.Second
			}
			m[name] = mode{kind: delay, sleep: d}
		default:
			m[name] = mode{kind: kill}
		}
	}
	return m
}

// Set makes this process act as if AUTORAG_FAILPOINT were spec until the
// returned function is called; for in-process tests.
func Set(spec string) (restore func()) {
	prev := points()
	m := parse(spec)
	active.Store(&m)
	return func() { active.Store(prev) }
}

func lookup(name string) (mode, bool) {
	p := points()
	if p == nil {
		return mode{}, false
	}
	md, ok := (*p)[name]
	return md, ok
}

// Hit acts when the failpoint list names this point: it kills or pauses
// the process, or returns an error wrapping ErrInjected. Otherwise it
// returns nil.
func Hit(name string) error {
	md, ok := lookup(name)
	if !ok {
		return nil
	}
	switch md.kind {
	case fail:
		return fmt.Errorf("failpoint %s: %w", name, ErrInjected)
	case pause:
		fmt.Fprintf(os.Stderr, "autorag: paused at %s\n", name)
		select {}
	case delay:
		fmt.Fprintf(os.Stderr, "autorag: delaying at %s\n", name)
		time.Sleep(md.sleep)
		return nil
	}
	killSelf()
	select {} // the kill may be delivered asynchronously
}
