// Package changelog frames the change logs that extend a base file instead
// of rewriting it: the mirror's manifest.log beside manifest.bin, and a
// generation's files.log beside its files.bin. A log starts with a header
// naming its base by the base's checksum, so a log left beside a rewritten
// base is recognized as stale; then come records, each carrying the
// BLAKE3-256 of its body, so a torn or damaged tail is found and the
// records before it still count.
//
// It owns the framing only (header, record frames, reading the intact
// records); what a record's body says belongs to the package that writes
// it. It must never import those packages (mirror, engine/...).
package changelog
