package layout

import (
	"encoding/json"
	"os"
)

// UpgradeTargets are the embedder identities whose cached vectors a
// refresh's eviction keeps besides its own embedder's: the target the
// upgrade record (UpgradePath, written by package upgrade) names, if any.
// The upgrader embeds into that identity's embedding cache without the
// refresh lock, from another process; those vectors are the upgrade's
// finished work, as the committed generation's are a refresh's. Only the
// target is read, whatever the record's format: keeping too much is
// harmless (the upgrade's commit collects them), dropping them is not.
func (l Layout) UpgradeTargets() []string {
	b, err := os.ReadFile(l.UpgradePath())
	if err != nil {
		return nil
	}
	var r struct {
		Target string `json:"target"`
	}
	if json.Unmarshal(b, &r) != nil || r.Target == "" {
		return nil
	}
	return []string{r.Target}
}
