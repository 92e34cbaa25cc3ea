package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/autorag/autorag/mcpserver"
)

func newMCPCmd(g *globals) *cobra.Command {
	o := &serverOptions{}
	var addr string
	var textCopy bool
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve search, refresh, status and read as Model Context Protocol tools (stdio, or --http ADDR)",
		Long: `Serve the index of the root to MCP clients over one long-lived engine: tools
search, refresh, status and read. Several roots: repeat --root, or name roots
of the workspace file with --workspace (all = every one); every tool then
takes a root argument and searches merge all roots by default. stdio by
default (autorag agents prints, and --install writes, the configuration of
Claude Code, Codex, Cursor, VS Code, Gemini CLI and opencode); --http ADDR
serves streamable HTTP instead, on loopback unless --token is given. -v logs
one JSON line per tool call (and, with --http, per HTTP request) on stderr.
Search answers carry snippets (each passage's best-matching lines) unless the
call asks for full_text, and their text content lists the citations only: the
passages are in the structured content (--text-copy sends the JSON as text too).`,
		Args: cobra.NoArgs,
		RunE: wrapRun(func(cmd *cobra.Command, args []string) error {
			ws, roots, err := newWorkspace(g, o)
			if err != nil {
				return err
			}
			defer ws.Close()
			var log *slog.Logger
			if g.verbose {
				log = slog.New(slog.NewJSONHandler(g.stderr, nil))
			}
			srv := mcpserver.New(ws, mcpserver.Options{Version: version(), Log: log, TextCopy: textCopy})
			return withWatcher(cmd.Context(), g, o, roots, func(ctx context.Context) error {
				if addr != "" {
					// Any tool call may be a refresh: MCP requests get the longer limit.
					long := func(*http.Request) bool { return true }
					return listenAndServe(ctx, g, o, "mcp", addr, mcpserver.HTTPHandler(srv), long)
				}
				t := &mcp.IOTransport{Reader: io.NopCloser(g.stdin), Writer: nopWriteCloser{g.stdout}}
				if err := srv.Run(ctx, t); err != nil && ctx.Err() == nil {
					return err
				}
				return nil
			})
		}),
	}
	cmd.Flags().StringVar(&addr, "http", "", "serve streamable HTTP on this address (host:port) instead of stdio")
	cmd.Flags().BoolVar(&textCopy, "text-copy", false, "send each answer's JSON as text content too, for clients that read only text (sent anyway to clients older than MCP 2025-06-18)")
	o.register(cmd)
	g.settings.addIndexFlags(cmd.Flags()) // it refreshes
	g.settings.addSearchFlags(cmd.Flags())
	return cmd
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
