// Package userfile is the one way autorag edits a file the user owns
// (the workspace file, an agent's MCP configuration): a read-modify-write
// that loses nobody's update and damages nothing.
//
//   - Lock: every edit holds an exclusive flock on a sibling lock file
//     (FILE.lock beside the file, created once and never removed) and reads
//     the file under it, so concurrent editors, in one process or many,
//     apply their changes one after the other.
//   - Symbolic links: a file that is a link (dotfiles) is edited through
//     it: the link's target is rewritten and the link is left a link. A
//     link to nothing is refused.
//   - Read-only: a file without its owner's write bit is refused with a
//     message, never replaced.
//   - Backup: the old content is first copied beside the file: a new
//     FILE.bak (FILE.bak.2, ...) never over an earlier backup (BackupEach),
//     or FILE.bak replaced, one backup of the version before (BackupLatest).
//   - Atomic: the new content replaces the file through a temporary file in
//     the same directory (fsync, rename, fsync of the directory), with the
//     old file's permission bits.
//
// What the new content is, and checking it parses, is the caller's job.
// It must never import engine.
package userfile
