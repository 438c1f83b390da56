package interp_test

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

func parseLine(s string) ([]*syntax.Stmt, error) {
	f, err := syntax.NewParser().Parse(strings.NewReader(s), "")
	if err != nil {
		return nil, err
	}
	return f.Stmts, nil
}
