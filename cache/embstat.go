package cache

import "os"

// openedState is what OpenEmbeddings loaded and the files it loaded it
// from, taken before loading: a change made while it loaded shows as a
// difference later.
type openedState struct {
	st       *logState
	log, idx fileStat
}

// fileStat identifies one version of a file: a missing file has a nil fi.
type fileStat struct{ fi os.FileInfo }

func statOf(f *os.File) fileStat {
	fi, err := f.Stat()
	if err != nil {
		return fileStat{}
	}
	return fileStat{fi}
}

func statPath(path string) fileStat {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStat{}
	}
	return fileStat{fi}
}

// same reports that both stats found the same file at the same size and
// modification time. Two failed stats are not the same: nothing is known.
func (a fileStat) same(b fileStat) bool {
	return a.fi != nil && b.fi != nil && os.SameFile(a.fi, b.fi) &&
		a.fi.Size() == b.fi.Size() && a.fi.ModTime().Equal(b.fi.ModTime())
}
