package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/autorag/autorag/agentapi"
	"github.com/autorag/autorag/envelope"
)

// MaxBody is the largest request body read.
const MaxBody = 1 << 20

// Handler serves api's operations under /v1/.
func Handler(ws *agentapi.Workspace) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/search", func(w http.ResponseWriter, r *http.Request) {
		req, err := searchQuery(r.URL.Query())
		answer(w, r, func(ctx context.Context) (any, error) { return ws.Search(ctx, req) }, err)
	})
	mux.HandleFunc("POST /v1/search", func(w http.ResponseWriter, r *http.Request) {
		var req agentapi.WorkspaceSearch
		err := decode(r, &req, true)
		answer(w, r, func(ctx context.Context) (any, error) { return ws.Search(ctx, req) }, err)
	})
	mux.HandleFunc("GET /v1/status", func(w http.ResponseWriter, r *http.Request) {
		req := agentapi.StatusRequest{Root: r.URL.Query().Get("root")}
		answer(w, r, func(ctx context.Context) (any, error) { return ws.Status(ctx, req) }, nil)
	})
	mux.HandleFunc("POST /v1/refresh", func(w http.ResponseWriter, r *http.Request) {
		var req agentapi.WorkspaceRefresh
		err := decode(r, &req, false)
		answer(w, r, func(ctx context.Context) (any, error) { return refresh(ctx, ws, req) }, err)
	})
	mux.HandleFunc("GET /v1/read", func(w http.ResponseWriter, r *http.Request) {
		req, err := readQuery(r.URL.Query())
		answer(w, r, func(ctx context.Context) (any, error) { return ws.Read(ctx, req) }, err)
	})
	mux.HandleFunc("POST /v1/read", func(w http.ResponseWriter, r *http.Request) {
		var req agentapi.WorkspaceRead
		err := decode(r, &req, true)
		answer(w, r, func(ctx context.Context) (any, error) { return ws.Read(ctx, req) }, err)
	})
	for path, allow := range map[string]string{"/v1/search": "GET, POST", "/v1/status": "GET", "/v1/refresh": "POST", "/v1/read": "GET, POST"} {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", allow)
			writeError(w, r, http.StatusMethodNotAllowed, envelope.CodeUsage, fmt.Errorf("%s %s: use %s", r.Method, path, allow))
		})
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, http.StatusNotFound, "not_found", fmt.Errorf("no route %s %s (see /v1/search, /v1/status, /v1/refresh, /v1/read)", r.Method, r.URL.Path))
	})
	return mux
}

// busyError carries a busy refresh envelope to answer with 503.
type busyError struct{ env *agentapi.RefreshAnswer }

func (b *busyError) Error() string {
	if b.env.Error != nil {
		return b.env.Error.Message
	}
	return "every root is busy"
}

func refresh(ctx context.Context, ws *agentapi.Workspace, req agentapi.WorkspaceRefresh) (any, error) {
	env, err := ws.Refresh(ctx, req)
	if err == nil && !env.OK && env.Outcome == envelope.CodeBusy {
		return nil, &busyError{env}
	}
	return env, err
}

// answer runs op unless the request was already bad (reqErr) and writes
// its envelope.
func answer(w http.ResponseWriter, r *http.Request, op func(context.Context) (any, error), reqErr error) {
	if reqErr != nil {
		writeError(w, r, http.StatusBadRequest, envelope.CodeUsage, reqErr)
		return
	}
	v, err := op(r.Context())
	var be *busyError
	switch {
	case errors.As(err, &be):
		w.Header().Set("Retry-After", "1")
		writeJSON(w, r, http.StatusServiceUnavailable, envelope.CodeBusy, be.env)
	case err != nil:
		code := agentapi.Code(err)
		if errors.Is(err, context.DeadlineExceeded) {
			code = "timeout"
		}
		writeError(w, r, statusOf(code), code, err)
	default:
		writeJSON(w, r, http.StatusOK, "", v)
	}
}

func statusOf(code string) int {
	switch code {
	case envelope.CodeUsage:
		return http.StatusBadRequest
	case agentapi.CodeRefused:
		return http.StatusForbidden
	case agentapi.CodeNotFound:
		return http.StatusNotFound
	case envelope.CodeNoIndex:
		return http.StatusConflict
	case envelope.CodeBusy, envelope.CodeInterrupted:
		return http.StatusServiceUnavailable
	case "timeout":
		return http.StatusGatewayTimeout
	default:
		return http.StatusInternalServerError
	}
}

// decode reads a JSON body into v; an empty body is allowed unless
// required.
func decode(r *http.Request, v any, required bool) error {
	if r.ContentLength == 0 && !required {
		return nil
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return errors.New("the body must be application/json")
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("body: %w", err)
	}
	if dec.More() {
		return errors.New("body: more than one JSON value")
	}
	return nil
}

// searchParams are the parameters GET /v1/search takes: the fields of a
// POST body, with filter repeatable.
var searchParams = []string{"q", "k", "mode", "path", "per_file", "explain", "filter", "type", "no_collapse", "root", "max_tokens"}

// searchQuery reads a GET /v1/search query string into the request a POST
// body would make, refusing parameters it does not know.
func searchQuery(q url.Values) (agentapi.WorkspaceSearch, error) {
	if err := knownParams(q, searchParams); err != nil {
		return agentapi.WorkspaceSearch{}, err
	}
	for _, name := range searchParams {
		if name != "filter" && len(q[name]) > 1 {
			return agentapi.WorkspaceSearch{}, fmt.Errorf("%s is given %d times: give it once", name, len(q[name]))
		}
	}
	req := agentapi.WorkspaceSearch{SearchRequest: agentapi.SearchRequest{Query: q.Get("q"), Mode: q.Get("mode"), Path: q.Get("path"),
		Filters: q["filter"], Type: q.Get("type")}, Root: q.Get("root")}
	var err error
	if req.MaxTokens, err = intParam(q, "max_tokens"); err != nil {
		return req, err
	}
	if q.Has("k") {
		k, err := intParam(q, "k")
		if err != nil {
			return req, err
		}
		req.K = &k
	}
	if req.PerFile, err = intParam(q, "per_file"); err != nil {
		return req, err
	}
	if req.Explain, err = boolParam(q, "explain"); err != nil {
		return req, err
	}
	req.NoCollapse, err = boolParam(q, "no_collapse")
	return req, err
}

// knownParams refuses a parameter outside known, the way a POST body
// refuses an unknown field.
func knownParams(q url.Values, known []string) error {
	var unknown []string
	for name := range q {
		if !slices.Contains(known, name) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	return fmt.Errorf("unknown parameter %s (this endpoint takes %s)", strings.Join(unknown, ", "), strings.Join(known, ", "))
}

func boolParam(q url.Values, name string) (bool, error) {
	v := q.Get(name)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s=%q: want true or false", name, v)
	}
	return b, nil
}

func readQuery(q url.Values) (agentapi.WorkspaceRead, error) {
	if err := knownParams(q, []string{"path", "start", "end", "offset", "root"}); err != nil {
		return agentapi.WorkspaceRead{}, err
	}
	req := agentapi.WorkspaceRead{ReadRequest: agentapi.ReadRequest{Path: q.Get("path")}, Root: q.Get("root")}
	var err error
	if req.Start, err = intParam(q, "start"); err != nil {
		return req, err
	}
	if req.End, err = intParam(q, "end"); err != nil {
		return req, err
	}
	req.Offset, err = intParam(q, "offset")
	return req, err
}

func intParam(q url.Values, name string) (int, error) {
	v := q.Get(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%q: want a whole number", name, v)
	}
	return n, nil
}

func writeError(w http.ResponseWriter, r *http.Request, status int, code string, err error) {
	writeJSON(w, r, status, code, envelope.NewErrorCode(err, code))
}

// writeJSON writes the envelope v and notes the error code for the log.
func writeJSON(w http.ResponseWriter, r *http.Request, status int, code string, v any) {
	if n := noteOf(r); n != nil {
		n.code = code
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = envelope.Write(w, v)
}
