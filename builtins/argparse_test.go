package builtins

import (
	"reflect"
	"testing"
)

func TestGetopt(t *testing.T) {
	g := Getopt{Short: "rnk:t:", Long: []string{"reverse", "key=", "numeric-sort"}, LongAlias: map[string]string{"key": "k", "reverse": "r"}}
	tests := []struct {
		args     []string
		opts     []Opt
		operands []string
		wantErr  bool
	}{
		{[]string{"-rn", "f"}, []Opt{{Name: "r"}, {Name: "n"}}, []string{"f"}, false},
		{[]string{"-k2,2n", "-t:", "a"}, []Opt{{"k", "2,2n", true}, {"t", ":", true}}, []string{"a"}, false},
		{[]string{"a", "-k", "3"}, []Opt{{"k", "3", true}}, []string{"a"}, false},
		{[]string{"--key=1", "--rev", "--numeric"}, []Opt{{"k", "1", true}, {Name: "r"}, {Name: "numeric-sort"}}, nil, false},
		{[]string{"--", "-r"}, nil, []string{"-r"}, false},
		{[]string{"-", "x"}, nil, []string{"-", "x"}, false},
		{[]string{"-x"}, nil, nil, true},
		{[]string{"-k"}, nil, nil, true},
		{[]string{"--bogus"}, nil, nil, true},
	}
	for _, tt := range tests {
		opts, ops, err := g.Parse(tt.args)
		if (err != nil) != tt.wantErr {
			t.Errorf("%q: err %v", tt.args, err)
			continue
		}
		if err == nil && (!reflect.DeepEqual(opts, tt.opts) || !reflect.DeepEqual(ops, tt.operands)) {
			t.Errorf("%q: got %v %q, want %v %q", tt.args, opts, ops, tt.opts, tt.operands)
		}
	}
}
