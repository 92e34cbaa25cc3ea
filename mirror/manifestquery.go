package mirror

import "strings"

// HasUnder reports whether m has the path rel or anything below it.
func (m *Manifest) HasUnder(rel string) bool {
	for _, en := range m.Entries {
		if en.Path == rel || strings.HasPrefix(en.Path, rel+"/") {
			return true
		}
	}
	return false
}

// SaveFailures writes the scan's parse-failure memo to path when it
// changed. Failing to only costs work: the files are parsed again next time.
func (r *ScanResult) SaveFailures(path string) error {
	if !r.FailuresChanged {
		return nil
	}
	return r.Failures.Save(path)
}
