package agentapi

import (
	"context"

	"github.com/autorag/autorag/envelope"
)

// WorkspaceRefresh is a refresh of one root, or of every root.
type WorkspaceRefresh struct {
	RefreshRequest
	Root string `json:"root,omitempty" jsonschema:"refresh only this root (its name, or an absolute path inside it); default: every root, one after another in parallel, each under its own lock"`
}

// RefreshAnswer is a refresh's envelope: that of the root refreshed (with
// its name), or with several roots ok and outcome over all plus each
// root's envelope in roots.
type RefreshAnswer struct {
	Root string `json:"root,omitempty"`
	*envelope.Refresh
	Roots []RootRefresh `json:"roots,omitempty"`
}

// RootRefresh is one root's part of a refresh of several.
type RootRefresh struct {
	Root string `json:"root"`
	*envelope.Refresh
	Failure *envelope.ErrorBody `json:"failure,omitempty"` // the refresh failed (not busy)
}

// Refresh brings the named root (or every root, at most Parallel at once)
// up to date. A busy root is a busy envelope; with several roots, a root
// that fails is reported in its entry and the others go on.
func (w *Workspace) Refresh(ctx context.Context, r WorkspaceRefresh) (*RefreshAnswer, error) {
	ms, err := w.pick(r.Root)
	if err != nil {
		return nil, err
	}
	if len(ms) == 1 {
		var env *envelope.Refresh
		ms[0].use(func(a *API) { env, err = a.Refresh(ctx, r.RefreshRequest) })
		if err != nil {
			return nil, err
		}
		return &RefreshAnswer{Root: ms[0].name, Refresh: env}, nil
	}
	if len(r.Paths) > 0 {
		return nil, usagef("paths are relative to one root: name it with root")
	}
	out := &RefreshAnswer{Refresh: &envelope.Refresh{OK: true}, Roots: make([]RootRefresh, len(ms))}
	w.each(ms, func(i int, m *member) {
		rr := RootRefresh{Root: m.name}
		m.use(func(a *API) {
			var err error
			if rr.Refresh, err = a.Refresh(ctx, r.RefreshRequest); err != nil {
				rr.Refresh = &envelope.Refresh{Outcome: "error"}
				rr.Failure = &ErrorEnvelope(err).Error
			}
		})
		out.Roots[i] = rr
	})
	for _, rr := range out.Roots {
		out.OK = out.OK && rr.OK
		switch {
		case out.Outcome == "":
			out.Outcome = rr.Outcome
		case out.Outcome != rr.Outcome:
			out.Outcome = "mixed"
		}
	}
	return out, nil
}

// StatusRequest names the root whose status is wanted.
type StatusRequest struct {
	Root string `json:"root,omitempty" jsonschema:"only this root (its name, or an absolute path inside it); default: every root"`
}

// StatusAnswer is the status of one root (flattened, as `autorag status
// --json` prints it, when the request named one or the workspace has one)
// and a line per root.
type StatusAnswer struct {
	OK      bool   `json:"ok"`
	Outcome string `json:"outcome"`
	// Name is the root's name (root is its path, as in `autorag status`).
	Name string `json:"name,omitempty"`
	*envelope.Status
	Roots []RootStatus `json:"roots"`
}

// RootStatus is one root's state in a workspace.
type RootStatus struct {
	Root       string              `json:"root"`
	Path       string              `json:"path"`
	OK         bool                `json:"ok"`
	Open       bool                `json:"open"` // its generation is open in this server (closed when idle)
	Indexed    bool                `json:"indexed"`
	Generation string              `json:"generation,omitempty"`
	Files      int                 `json:"files"`
	Chunks     int                 `json:"chunks"`
	Changed    *bool               `json:"sources_changed,omitempty"`
	Embedder   string              `json:"embedder,omitempty"` // the index's: it answers this root's queries
	Error      *envelope.ErrorBody `json:"error,omitempty"`
}

// Status reports every root named (each read from its sidecar, without
// opening its generation); a root that fails is reported, not fatal,
// unless it was the one named.
func (w *Workspace) Status(ctx context.Context, r StatusRequest) (*StatusAnswer, error) {
	ms, err := w.pick(r.Root)
	if err != nil {
		return nil, err
	}
	out := &StatusAnswer{OK: true, Outcome: "ok", Roots: make([]RootStatus, len(ms))}
	envs := make([]*envelope.Status, len(ms))
	errs := make([]error, len(ms))
	w.each(ms, func(i int, m *member) {
		rs := RootStatus{Root: m.name, Path: m.e.Layout.Root, Open: m.open()}
		envs[i], errs[i] = statusOf(ctx, m)
		if errs[i] != nil {
			rs.Error = &ErrorEnvelope(errs[i]).Error
		} else {
			st := envs[i].Status
			rs.OK, rs.Indexed, rs.Generation, rs.Changed = true, st.Indexed, st.Generation, st.SourcesChanged
			rs.Files, rs.Chunks, rs.Embedder = st.Counts.Files, st.Counts.Chunks, st.Embedder
		}
		out.Roots[i] = rs
	})
	if len(ms) == 1 {
		if errs[0] != nil {
			return nil, errs[0]
		}
		out.Name, out.Status = ms[0].name, envs[0]
	}
	return out, nil
}

// statusOf is a root's status; it does not open the root's API.
func statusOf(ctx context.Context, m *member) (*envelope.Status, error) {
	st, err := m.e.Status(ctx)
	if err != nil {
		return nil, err
	}
	return envelope.NewStatus(st), nil
}

// WorkspaceRead is a read of lines of a file of one root.
type WorkspaceRead struct {
	ReadRequest
	Root string `json:"root,omitempty" jsonschema:"the root the file is in, as search results name it (needed when the server has several roots)"`
}

// RootRead is a read's answer, naming its root.
type RootRead struct {
	Root string `json:"root"`
	*ReadResult
}

// Read returns lines of a file of the root named (the only root when
// there is one).
func (w *Workspace) Read(ctx context.Context, r WorkspaceRead) (*RootRead, error) {
	m, err := w.one(r.Root, "read")
	if err != nil {
		return nil, err
	}
	var res *ReadResult
	m.use(func(a *API) { res, err = a.Read(ctx, r.ReadRequest) })
	if err != nil {
		return nil, err
	}
	return &RootRead{Root: m.name, ReadResult: res}, nil
}
