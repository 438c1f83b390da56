package builtins

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
)

const dataCksumUsage = `Usage: cksum [OPTION]... [FILE]...
Print CRC checksum and byte counts of each FILE.

With no FILE, or when FILE is -, read standard input.
  -a, --algorithm=TYPE  select the digest type to use: crc (default),
                        sysv, bsd, md5, sha1, sha224, sha256, sha384, sha512
      --tag             create a BSD-style checksum (the default for digests)
      --untagged        create a reversed style checksum, without digest type
`

var cksumGetopt = Getopt{Short: "a:", Long: []string{"algorithm=", "tag", "untagged", "check", "zero"},
	LongAlias: map[string]string{"algorithm": "a"}}

func runCksum(ctx context.Context, env *Env, args []string) int {
	g := cksumGetopt
	opts, files, err := g.Parse(args[1:])
	if err != nil {
		return env.UsageError("cksum", err, 1)
	}
	algo, untagged := "crc", false
	for _, o := range opts {
		switch o.Name {
		case "a":
			algo = o.Value
		case "untagged":
			untagged = true
		case "tag":
			untagged = false
		case "check", "zero":
			env.Errorf("cksum", "--%s is not supported", o.Name)
			return 1
		}
	}
	switch algo {
	case "crc", "sysv", "bsd":
	default:
		d, ok := dataDigestByName(algo)
		if !ok {
			env.Errorf("cksum", "invalid argument '%s' for '--algorithm'", algo)
			return 1
		}
		a := []string{"cksum"}
		if !untagged {
			a = append(a, "--tag")
		}
		return dataRunSum(ctx, env, append(a, files...), d)
	}
	named := len(files) > 0
	if !named {
		files = []string{"-"}
	}
	w := dataWriter(env)
	st := 0
	for _, f := range files {
		r, err := dataOpen(env, f)
		if err != nil {
			st = env.FileError("cksum", f, err)
			continue
		}
		var line string
		switch algo {
		case "crc":
			crc, n, err := dataCRC(ctx, r)
			if err != nil {
				r.Close()
				st = env.FileError("cksum", f, err)
				continue
			}
			line = fmt.Sprintf("%d %d", crc, n)
		case "sysv":
			line, err = dataSumSysV(ctx, r)
		case "bsd":
			line, err = dataSumBSD(ctx, r)
		}
		r.Close()
		if err != nil {
			st = env.FileError("cksum", f, err)
			continue
		}
		if named {
			line += " " + f
		}
		w.WriteString(line + "\n")
	}
	if err := w.Flush(); err != nil {
		return env.WriteError("cksum", err)
	}
	return st
}

// dataCRCTables are the POSIX cksum CRC-32 tables (polynomial
// 0x04C11DB7, most significant bit first), extended for slicing by 8 so
// the loop handles eight bytes per step.
func dataCRCTables() *[8][256]uint32 {
	var t [8][256]uint32
	for i := range t[0] {
		c := uint32(i) << 24
		for j := 0; j < 8; j++ {
			if c&0x80000000 != 0 {
				c = c<<1 ^ 0x04C11DB7
			} else {
				c <<= 1
			}
		}
		t[0][i] = c
	}
	for i := 0; i < 256; i++ {
		for k := 1; k < 8; k++ {
			t[k][i] = t[k-1][i]<<8 ^ t[0][byte(t[k-1][i]>>24)]
		}
	}
	return &t
}

// dataCRCUpdate feeds b into crc.
func dataCRCUpdate(t *[8][256]uint32, crc uint32, b []byte) uint32 {
	for len(b) >= 8 {
		crc ^= uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
		crc = t[7][byte(crc>>24)] ^ t[6][byte(crc>>16)] ^ t[5][byte(crc>>8)] ^ t[4][byte(crc)] ^
			t[3][b[4]] ^ t[2][b[5]] ^ t[1][b[6]] ^ t[0][b[7]]
		b = b[8:]
	}
	for _, c := range b {
		crc = crc<<8 ^ t[0][byte(crc>>24)^c]
	}
	return crc
}

// dataCRC computes the POSIX cksum of r and its length.
func dataCRC(ctx context.Context, r io.Reader) (uint32, int64, error) {
	t := dataCRCTables()
	var crc uint32
	var n int64
	buf := make([]byte, dataBufSize)
	for {
		if err := ctx.Err(); err != nil {
			return 0, 0, err
		}
		m, err := r.Read(buf)
		crc = dataCRCUpdate(t, crc, buf[:m])
		n += int64(m)
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, err
		}
	}
	for l := n; l != 0; l >>= 8 {
		crc = crc<<8 ^ t[0][byte(crc>>24)^byte(l)]
	}
	return ^crc, n, nil
}

// dataSumBSD is `sum -r`: a rotating 16-bit checksum and 1K blocks.
func dataSumBSD(ctx context.Context, r io.Reader) (string, error) {
	var sum uint32
	var n int64
	br := bufio.NewReaderSize(r, dataBufSize)
	buf := make([]byte, dataBufSize)
	for {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		m, err := br.Read(buf)
		for _, c := range buf[:m] {
			sum = (sum >> 1) + ((sum & 1) << 15)
			sum = (sum + uint32(c)) & 0xffff
		}
		n += int64(m)
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("%05d %5d", sum, (n+1023)/1024), nil
}

// dataSumSysV is `sum -s`: the System V byte sum and 512-byte blocks.
func dataSumSysV(ctx context.Context, r io.Reader) (string, error) {
	var s uint64
	var n int64
	buf := make([]byte, dataBufSize)
	for {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		m, err := r.Read(buf)
		for _, c := range buf[:m] {
			s += uint64(c)
		}
		n += int64(m)
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
	}
	t := (s & 0xffff) + (s&0xffffffff)>>16
	t = (t & 0xffff) + t>>16
	return strconv.FormatUint(t, 10) + " " + strconv.FormatInt((n+511)/512, 10), nil
}
