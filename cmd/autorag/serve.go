package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/autorag/autorag/httpapi"
	"github.com/autorag/autorag/watch"
)

// serverOptions are the flags `autorag serve` and `autorag mcp` share.
type serverOptions struct {
	token          string
	timeout        time.Duration
	refreshTimeout time.Duration
	staleInterval  time.Duration
	watch          bool          // run the watcher inside the server
	debounce       time.Duration // its debounce
	watchParallel  int           // refreshes in flight over all roots
	workspaces     []string      // roots of the workspace file to serve
	idleClose      time.Duration // close a root's generation after this long unused
	defaultRoot    string        // where a request naming no root goes
}

func (o *serverOptions) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.token, "token", "", "bearer token every HTTP request must carry; required to bind a non-loopback address (env AUTORAG_TOKEN)")
	f.DurationVar(&o.timeout, "timeout", 30*time.Second, "time limit of an HTTP search, read or status request")
	f.DurationVar(&o.refreshTimeout, "refresh-timeout", 30*time.Minute, "time limit of an HTTP refresh request")
	f.DurationVar(&o.staleInterval, "stale-interval", time.Second, "least time between two checks of the sources for the stale flag")
	f.BoolVar(&o.watch, "watch", false, "keep the index fresh from inside the server, as autorag watch does (ticks logged on stderr with -v)")
	f.DurationVar(&o.debounce, "debounce", watch.DefaultDebounce, "with --watch: quiet time after the last file event before a refresh")
	f.IntVar(&o.watchParallel, "watch-parallel", 2, "with --watch: most refreshes in flight at once over all roots (each root has at most one)")
	f.StringArrayVar(&o.workspaces, "workspace", nil, "serve this root of the workspace file (autorag workspace list), repeatable; all = every one; with --root too")
	f.StringVar(&o.defaultRoot, "default-root", "", "where a request naming no root goes: a root's name, or cwd (the root holding the working directory, where a stdio client starts the server); default: every root (a request can name root \"all\")")
	f.DurationVar(&o.idleClose, "idle-close", 5*time.Minute, "close a root's open index after this long without a request (reopened on the next; 0 = never)")
}

func newServeCmd(g *globals) *cobra.Command {
	o := &serverOptions{}
	var addr string
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve search, refresh, status and read as an HTTP JSON API (loopback unless --token)",
		Long: `Serve the index of the root as an HTTP JSON API over one long-lived engine:
GET /v1/search?q=TEXT (or POST /v1/search), GET /v1/status, POST /v1/refresh,
GET /v1/read?path=P&start=A&end=B; with several roots (--root repeated, or
--workspace) each takes root=NAME. The server binds loopback by default;
binding any other address requires --token, which every request must then
carry as "Authorization: Bearer TOKEN". SIGINT or SIGTERM stop it cleanly
(exit 0). -v logs one JSON line per request on stderr.`,
		Args: cobra.NoArgs,
		RunE: wrapRun(func(cmd *cobra.Command, args []string) error {
			ws, roots, err := newWorkspace(g, o)
			if err != nil {
				return err
			}
			defer ws.Close()
			return withWatcher(cmd.Context(), g, o, roots, func(ctx context.Context) error {
				return listenAndServe(ctx, g, o, "serve", addr, httpapi.Handler(ws), nil)
			})
		}),
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:7700", "address to listen on (host:port; port 0 picks a free one)")
	o.register(cmd)
	g.settings.addIndexFlags(cmd.Flags()) // it refreshes
	g.settings.addSearchFlags(cmd.Flags())
	return cmd
}

// guardNote says at start how the server is guarded.
func guardNote(loopback, token bool) string {
	switch {
	case !loopback:
		return "NOT loopback: reachable from other hosts, every request needs the bearer token"
	case token:
		return "loopback, bearer token required"
	default:
		return "loopback only, no token"
	}
}

// listenAndServe checks the bind, says where it listens and how it is
// guarded, and serves until the context ends (then exits cleanly).
func listenAndServe(ctx context.Context, g *globals, o *serverOptions, name, addr string, h http.Handler, long func(*http.Request) bool) error {
	loopback, err := httpapi.CheckBind(addr, o.token)
	if err != nil {
		return &usageError{err: err}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	fmt.Fprintf(g.stderr, "autorag %s: listening on http://%s (%s)\n", name, ln.Addr(), guardNote(loopback, o.token != ""))
	var log *slog.Logger
	if g.verbose {
		log = slog.New(slog.NewJSONHandler(g.stderr, nil))
	}
	return httpapi.Serve(ctx, ln, h, httpapi.Options{Token: o.token, Log: log, Long: long,
		Limits: httpapi.Limits{Timeout: o.timeout, RefreshTimeout: o.refreshTimeout}})
}
