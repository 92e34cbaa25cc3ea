package mirror

// Mirrors are the manifest and mirror store a refresh left: what `read`
// serves instead of parsing a file again (a PDF takes seconds to parse,
// its mirror milliseconds to load).
type Mirrors struct {
	Manifest *Manifest
	Store    *Store
}

// OpenMirrors loads the manifest at manifestPath and opens the store in
// objectsDir read-only; nil when there is no readable manifest (no
// refresh yet), which ReadSourceFrom takes as "parse".
func OpenMirrors(manifestPath, objectsDir string) *Mirrors {
	man, err := LoadManifest(manifestPath)
	if err != nil {
		return nil
	}
	return &Mirrors{Manifest: man, Store: OpenStoreReadOnly(objectsDir)}
}

// Doc returns the mirrored Doc of rel when data, the file's bytes as read
// now, are the bytes the manifest recorded (same BLAKE3 digest) and
// parser is the one that mirrored them; false otherwise, and when the
// object cannot be read (collected meanwhile, damaged): the caller parses.
func (m *Mirrors) Doc(rel, parser string, data []byte) (*Doc, bool) {
	if m == nil || m.Manifest == nil || m.Store == nil {
		return nil, false
	}
	e, ok := m.Manifest.Lookup(rel)
	if !ok || e.Parser != parser || HashBytes(data) != e.RawHash {
		return nil, false
	}
	d, err := m.Store.Get(e.TextHash)
	if err != nil {
		return nil, false
	}
	return d, true
}

// DocAt returns the mirrored Doc of rel as the last refresh left it,
// without looking at the file; false when rel is not mirrored or its
// object cannot be read.
func (m *Mirrors) DocAt(rel string) (*Doc, bool) {
	if m == nil || m.Manifest == nil || m.Store == nil {
		return nil, false
	}
	e, ok := m.Manifest.Lookup(rel)
	if !ok {
		return nil, false
	}
	d, err := m.Store.Get(e.TextHash)
	return d, err == nil
}
