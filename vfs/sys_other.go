//go:build !linux

package vfs

import "io/fs"

// metaFromSys is only implemented for Linux; elsewhere MetaOf falls back
// to defaults derived from the FileInfo.
func metaFromSys(fi fs.FileInfo) *Meta { return nil }

// hostID is only implemented for Linux.
func hostID(fi fs.FileInfo) (dev, ino uint64, ok bool) { return 0, 0, false }
