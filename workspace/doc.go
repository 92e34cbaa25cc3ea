// Package workspace owns the workspace file, the list of named roots that
// `autorag mcp --workspace` and `autorag serve --workspace` serve together
// and `autorag workspace add|remove|list` edits:
//
//	$XDG_CONFIG_HOME/autorag/workspaces.toml   (default ~/.config/autorag/workspaces.toml;
//	                                            AUTORAG_WORKSPACES names another file)
//
//	[roots.notes]
//	path = "/home/me/notes"
//
//	[roots.api]
//	path = "/home/me/src/api"
//	watch = false        # not kept live by a server's --watch
//	poll = "10s"         # with --watch: poll instead of file events (NFS, FUSE)
//	debounce = "1s"      # with --watch: quiet time before a refresh
//
// Each root's index settings stay in its own .autorag/config.toml. Unknown
// keys are an error, so a typo is never silently ignored.
//
// AddRoot and RemoveRoot edit the file as text through internal/userfile:
// under a lock (concurrent adds all land), through a symbolic link, never
// a read-only file, with a backup first. An add appends a [roots.NAME]
// table; a remove cuts that table out; the user's comments and layout
// survive, and the result must parse (strictly) to exactly the roots
// intended, or nothing is written. FILE.bak holds the version before the
// last edit (one backup, replaced at each edit: ten adds leave one).
//
// It must never import engine or anything that opens an index.
package workspace
