//go:build landlocktsync

package internal

func minimumRequiredABIVersion() int { return 8 }
