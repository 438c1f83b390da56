package builtins

import (
	"bufio"
	"context"
	"fmt"
	"strings"
)

const echoUsage = `Usage: echo [SHORT-OPTION]... [STRING]...
Echo the STRING(s) to standard output.

  -n             do not output the trailing newline
  -e             enable interpretation of backslash escapes
  -E             disable interpretation of backslash escapes (default)
      --help     display this help and exit
`

// runEcho is coreutils' /bin/echo: options are recognised only while every
// argument is made of n, e and E letters.
func runEcho(ctx context.Context, env *Env, args []string) int {
	ops := args[1:]
	if len(ops) == 1 && ops[0] == "--help" {
		fmt.Fprint(env.Stdout, echoUsage)
		return 0
	}
	newline, escapes := true, false
	for len(ops) > 0 && len(ops[0]) > 1 && ops[0][0] == '-' && strings.Trim(ops[0][1:], "neE") == "" {
		for _, c := range ops[0][1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		ops = ops[1:]
	}
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	var buf []byte
	for i, a := range ops {
		if i > 0 {
			buf = append(buf, ' ')
		}
		if !escapes {
			buf = append(buf, a...)
			continue
		}
		var stop bool
		buf, stop = echoEscapes(buf, a)
		if stop {
			newline = false
			break
		}
	}
	if newline {
		buf = append(buf, '\n')
	}
	w.Write(buf)
	if err := w.Flush(); err != nil {
		return env.WriteError(args[0], err)
	}
	return 0
}

// echoEscapes appends s with echo -e's escapes expanded; stop reports \c.
func echoEscapes(buf []byte, s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			buf = append(buf, c)
			continue
		}
		i++
		switch c = s[i]; c {
		case 'a', 'b', 'e', 'f', 'n', 'r', 't', 'v':
			buf = append(buf, shellSimpleEscape(c))
		case '\\':
			buf = append(buf, '\\')
		case 'c':
			return buf, true
		case 'x':
			if i+1 >= len(s) || !shellIsHex(s[i+1]) {
				buf = append(buf, '\\', 'x')
				continue
			}
			v := 0
			for k := 0; k < 2 && i+1 < len(s) && shellIsHex(s[i+1]); k++ {
				i++
				v = v*16 + shellHexVal(s[i])
			}
			buf = append(buf, byte(v))
		case '0', '1', '2', '3', '4', '5', '6', '7':
			// \0NNN takes up to three digits after the 0, \NNN up to three
			// in all.
			v := int(c - '0')
			if c == '0' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7' {
				i++
				v = int(s[i] - '0')
			}
			for k := 0; k < 2 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7'; k++ {
				i++
				v = v*8 + int(s[i]-'0')
			}
			buf = append(buf, byte(v))
		default:
			buf = append(buf, '\\', c)
		}
	}
	return buf, false
}
