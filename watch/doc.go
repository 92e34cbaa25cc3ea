// Package watch keeps an index fresh while its sources are edited: the
// engine of `autorag watch`, and what a long-running server calls (Run)
// to keep the root it serves up to date.
//
// # Ticks
//
// Every refresh watch makes is a tick. The first (trigger "start") is a
// full refresh, so that whatever changed while nothing watched is picked
// up. Then:
//
//   - event: fsnotify reports a change under the root; the changed paths
//     are refreshed in process without walking the tree (what `refresh
//     --paths` does). fsnotify is not recursive: every directory a scan
//     would enter is watched, new directories are added as they appear
//     (their path is refreshed, which covers the files already inside),
//     removed or renamed ones are dropped (their path is refreshed, which
//     deletes whatever was indexed under it). An edited ignore file
//     reloads the rules and refreshes its directory: newly ignored files
//     leave the index, newly unignored ones enter it.
//   - reconcile: every Options.Reconcile (5 minutes) and after fsnotify
//     reports lost events, a full mtime-then-hash walk as a safety net
//     (it also catches edits of .git/info/exclude, which is not watched).
//     Lost events (a queue overflow) may have been the creation of
//     directories or edits of ignore files, so before that walk the watch
//     set is rebuilt from a walk of its own: rules read again, every
//     directory a scan would enter watched, vanished ones dropped.
//   - poll: with Options.Poll, or when the kernel refuses another watch
//     (fs.inotify.max_user_watches; reported through OnNotice), a full
//     walk every period instead of events.
//   - idle: after Options.Idle (30 s) with nothing to do and a commit since
//     the last check, engine.Compact merges the segments refreshes left
//     behind, as its own committed generation under the lock. An event
//     cancels a compaction in flight; it is tried at the next quiet period.
//
// # Backpressure
//
// One goroutine owns the schedule. At most one tick is in flight and at
// most one is pending: events that arrive during a tick coalesce into the
// pending one, whose paths are a set. An event tick starts Options.Debounce
// (300 ms) after the last event, but no later than MaxDelay after the
// first, so a steady stream of events cannot starve it. A tick that finds
// the lock held by another process is reported busy and its work goes back
// into the pending tick, retried after a backoff (from Debounce, doubling
// to 5 s): busy ticks lose nothing and never make Run fail. Save storms
// (an editor's temp file renamed over the original, chmod-only events,
// identical rewrites) cost a tick at most, never a re-index: the engine's
// mtime-then-hash finds nothing changed.
//
// # Many roots
//
// A server keeping several roots live runs one Run per root, all given the
// same Pool (Options.Pool): each root still has at most one tick in flight,
// and all of them together at most the pool's size. A tick waits for a
// slot before it refreshes (its events keep coalescing meanwhile); a root
// whose directory is gone fails its ticks, backing off, rather than being
// created again empty.
//
// # Stopping
//
// When its context is cancelled Run waits up to Options.Grace for the tick
// in flight, then cancels it; a cancelled refresh commits nothing and its
// partial generation is garbage for the next one. Run then returns nil.
package watch
