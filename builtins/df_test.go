package builtins

import "testing"

func TestDf(t *testing.T) {
	files := map[string]string{"d/a": string(make([]byte, 5000))}
	filesRunCases(t, []filesCase{
		{files: files, args: []string{"df"}, outSub: []string{"Filesystem     1K-blocks", "Mounted on\n", "sandbox", " /\n"}},
		{files: files, args: []string{"df", "-hT", "."}, outSub: []string{"Filesystem     Type   Size  Used Avail Use% Mounted on\n", "memfs"}},
		{files: files, args: []string{"df", "-i"}, outSub: []string{"Inodes", "IUse%"}},
		{files: files, args: []string{"df", "-P"}, outSub: []string{"1024-blocks", "Capacity"}},
		{files: files, args: []string{"df", "--total", "-BM"}, outSub: []string{"1M-blocks", "\ntotal "}},
		{files: files, args: []string{"df", "-t", "ext4"}, errSub: "no file systems processed", status: 1},
		{files: files, args: []string{"df", "nope"}, errSub: "df: nope: No such file or directory", status: 1},
	})
}
