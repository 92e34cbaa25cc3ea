//go:build !linux

package main

import "errors"

var errNotLinux = errors.New("mounts need Linux")

func mountTmpfs(string, int64) error      { return errNotLinux }
func bindReadOnly(string) (func(), error) { return nil, errNotLinux }
func unmount(string)                      {}
func fill(string, int64) error            { return errNotLinux }
func isNoSpace(string) bool               { return false }
