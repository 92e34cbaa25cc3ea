package engine

import (
	"fmt"

	"github.com/autorag/autorag/engine/backend/weaviate"
	"github.com/autorag/autorag/fingerprint"
)

// Backend says where the searchable state of an index lives (storage.go).
// The zero value is the local backend.
type Backend struct {
	// Name is BackendLocal or BackendWeaviate; "" means the one the
	// committed index was built with (with its shards and replicas), else
	// local.
	Name string
	// URL of a Weaviate node's REST endpoint, e.g. http://127.0.0.11:18080.
	URL string
	// APIKey, when set, is sent to Weaviate as a bearer token; it never
	// appears in output or errors.
	APIKey string
	// Shards and Replicas shape a Weaviate collection; 0 means 1.
	Shards, Replicas int
}

func (b Backend) name() string {
	if b.Name == "" {
		return BackendLocal
	}
	return b.Name
}

func (b Backend) validate() error {
	switch b.name() {
	case BackendLocal:
		return nil
	case BackendWeaviate:
		if b.URL == "" {
			return fmt.Errorf("backend weaviate needs the cluster's url (AUTORAG_WEAVIATE_URL)")
		}
		if b.Shards < 0 || b.Replicas < 0 {
			return fmt.Errorf("shards and replicas must not be negative: %d, %d", b.Shards, b.Replicas)
		}
		return nil
	}
	return fmt.Errorf("unknown backend %q (want %s or %s)", b.Name, BackendLocal, BackendWeaviate)
}

//semguard:begin backend-id

// id is the fingerprinted name of the backend and its storage settings: ""
// for the local backend, so that its fingerprints are what they were before
// there were backends. A Weaviate id names the schema of its objects
// (weaviate.Schema), so that a collection holding fewer properties than the
// reader asks for is rebuilt by the next refresh.
func (b Backend) id() string {
	if b.name() == BackendLocal {
		return ""
	}
	return fmt.Sprintf("%s shards=%d replicas=%d schema=%d", b.name(), max(b.Shards, 1), max(b.Replicas, 1), weaviate.Schema)
}

//semguard:end backend-id

// withRecordedBackend is e with the backend the committed index sc was
// built with, when e's settings name none: a refresh or status after
// `refresh --backend weaviate` needs no flag to stay on Weaviate.
func (e *Engine) withRecordedBackend(sc *fingerprint.Sidecar) *Engine {
	if e.Settings.Backend.Name != "" || sc == nil || sc.Settings["backend"] == "" {
		return e
	}
	cp := *e
	cp.Settings.Backend.Name = backendOf(sc)
	cp.Settings.Backend.Shards, cp.Settings.Backend.Replicas = weaviate.RecordedShape(sc.Settings["backend"])
	return &cp
}
