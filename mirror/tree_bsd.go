//go:build unix && !linux

package mirror

// openBeneath opens name beneath dirfd with no symlink in any component.
func openBeneath(dirfd int, name string, flags int) (int, error) {
	return openComponents(dirfd, name, flags)
}
