package builtins

import "testing"

func TestNprocCommand(t *testing.T) {
	eight := func(e *Env) { e.Sys.NumCPU = 8 }
	shellRunCases(t, []shellCase{
		{args: []string{"nproc"}, out: "2\n"},
		{args: []string{"nproc"}, out: "8\n", setup: eight},
		{args: []string{"nproc", "--all"}, out: "8\n", setup: eight},
		{args: []string{"nproc", "--ignore=3"}, out: "5\n", setup: eight},
		{args: []string{"nproc", "--ignore=30"}, out: "1\n", setup: eight},
		{args: []string{"nproc"}, env: []string{"OMP_NUM_THREADS=3"}, out: "3\n", setup: eight},
		{args: []string{"nproc"}, env: []string{"OMP_NUM_THREADS=6", "OMP_THREAD_LIMIT=4"}, out: "4\n", setup: eight},
		{args: []string{"nproc", "--all"}, env: []string{"OMP_NUM_THREADS=3"}, out: "8\n", setup: eight},
		{args: []string{"nproc", "--ignore=x"}, status: 1, errHas: "invalid number"},
	})
}
