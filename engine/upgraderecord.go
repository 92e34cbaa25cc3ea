package engine

import (
	"encoding/json"
	"os"
)

// upgradeTarget is the embedder identity the upgrade record of the root
// (Layout.UpgradePath, written by package upgrade) names as its target;
// "" when there is none. The upgrader embeds into that identity's
// embedding cache without the refresh lock, from another process, so a
// refresh's eviction keeps those vectors whole: they are the finished work
// of the upgrade, as the committed generation's are a refresh's. Only the
// target is read, whatever the record's format: keeping too much is
// harmless (the upgrade's commit collects them), dropping them is not.
func upgradeTarget(l Layout) string {
	b, err := os.ReadFile(l.UpgradePath())
	if err != nil {
		return ""
	}
	var r struct {
		Target string `json:"target"`
	}
	if json.Unmarshal(b, &r) != nil {
		return ""
	}
	return r.Target
}

// keptEmbedders are the identities whose cached vectors a refresh's
// eviction keeps besides its own embedder's: an upgrade's target.
func (e *Engine) keptEmbedders() []string {
	if t := upgradeTarget(e.Layout); t != "" {
		return []string{t}
	}
	return nil
}
