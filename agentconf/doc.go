// Package agentconf owns the MCP configuration of the coding agents
// autorag sets itself up for, in each one's documented format:
//
//	claude    Claude Code, project scope   <project>/.mcp.json            {"mcpServers": {name: {"type": "stdio", "command", "args"}}}
//	cursor    Cursor, project scope        <project>/.cursor/mcp.json     {"mcpServers": {name: {"command", "args"}}}
//	vscode    VS Code (Copilot agent mode) <project>/.vscode/mcp.json     {"servers": {name: {"type": "stdio", "command", "args"}}}
//	gemini    Gemini CLI, project scope    <project>/.gemini/settings.json {"mcpServers": {name: {"command", "args"}}}
//	opencode  opencode, project scope      <project>/opencode.json        {"mcp": {name: {"type": "local", "command": [cmd, args...], "enabled": true}}}
//	codex     Codex CLI, user scope        $CODEX_HOME/config.toml (~/.codex) [mcp_servers.name] command, args
//
// (Codex reads a project's .codex/config.toml only once the project is
// trusted, so the user file is the one that always works.)
//
// Install merges the entry into the client's file: the rest of the file is
// kept (JSON files are re-encoded with their keys sorted and their numbers
// as written, TOML is appended to as text so comments survive, and the
// result must pass a strict TOML parser), the old file is first copied
// to a backup beside it, an identical entry is left alone, and a
// different entry of the same name is refused, never overwritten. The
// edit goes through internal/userfile: under a lock on the file, through
// a symbolic link to its target, never into a read-only file.
//
// It must never import engine: it knows commands and files, not indexes.
package agentconf
