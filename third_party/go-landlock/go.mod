module github.com/landlock-lsm/go-landlock

go 1.26.0

require (
	golang.org/x/sys v0.48.0
	kernel.org/pub/linux/libs/security/libcap/psx v1.2.77
)
