//go:build linux

package models

import (
	"os"
	"syscall"
)

func identityOf(fi os.FileInfo) identity {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return identity{}
	}
	return identity{Dev: st.Dev, Ino: st.Ino, CtimeNs: st.Ctim.Nano()}
}
