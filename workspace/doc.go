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
// Each root's index settings stay in its own .autorag/config.toml. The
// file is written atomically (temporary file, fsync, rename). Unknown keys
// are an error, so a typo is never silently ignored.
//
// It must never import engine or anything that opens an index.
package workspace
