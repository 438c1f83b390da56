package builtins

import (
	"context"
	"fmt"
	"io"
	"sort"
)

// table is the one registry of in-process commands. Keep it sorted by
// group; each entry's Run lives in a file named after the command.
func table() []Command {
	return []Command{
		// -- files --
		{Name: "cat", Summary: "concatenate files and print on the standard output", Usage: catUsage, Run: runCat},
		{Name: "ls", Summary: "list directory contents", Usage: lsUsage, Run: runLs},
		{Name: "cp", Summary: "copy files and directories", Usage: cpUsage, Run: runCp},
		{Name: "mv", Summary: "move (rename) files", Usage: mvUsage, Run: runMv},
		{Name: "rm", Summary: "remove files or directories", Usage: rmUsage, Run: runRm},
		{Name: "mkdir", Summary: "make directories", Usage: mkdirUsage, Run: runMkdir},
		{Name: "rmdir", Summary: "remove empty directories", Usage: rmdirUsage, Run: runRmdir},
		{Name: "touch", Summary: "change file timestamps", Usage: touchUsage, Run: runTouch},
		{Name: "install", Summary: "copy files and set attributes", Usage: installUsage, Run: runInstall},
		{Name: "ln", Summary: "make links between files", Usage: lnUsage, Run: runLn},
		{Name: "chmod", Summary: "change file mode bits", Usage: chmodUsage, Run: runChmod},
		{Name: "chown", Summary: "change file owner and group (the sandbox's virtual accounts)", Usage: chownUsage, Run: runChown},
		{Name: "chgrp", Summary: "change group ownership (the sandbox's virtual groups)", Usage: chgrpUsage, Run: runChgrp},
		{Name: "stat", Summary: "display file or file system status", Usage: statUsage, Run: runStat},
		{Name: "du", Summary: "estimate file space usage", Usage: duUsage, Run: runDu},
		{Name: "df", Summary: "report file system space usage", Usage: dfUsage, Run: runDf},
		{Name: "find", Summary: "search for files in a directory hierarchy", Usage: findUsage, Run: runFind, RawArgs: true},
		{Name: "basename", Summary: "strip directory and suffix from filenames", Usage: basenameUsage, Run: runBasename},
		{Name: "dirname", Summary: "strip last component from file name", Usage: dirnameUsage, Run: runDirname},
		{Name: "readlink", Summary: "print resolved symbolic links or canonical file names", Usage: readlinkUsage, Run: runReadlink},
		{Name: "realpath", Summary: "print the resolved path", Usage: realpathUsage, Run: runRealpath},
		{Name: "mktemp", Summary: "create a temporary file or directory", Usage: mktempUsage, Run: runMktemp},
		{Name: "file", Summary: "determine file type", Usage: fileUsage, Run: runFile},
		{Name: "pgrep", Summary: "look up the sandbox's processes by name", Usage: pgrepUsage, Run: runPgrep},
		{Name: "pkill", Summary: "signal the sandbox's processes by name", Usage: pkillUsage, Run: runPkill, RawArgs: true},
		{Name: "ps", Summary: "report a snapshot of the sandbox's processes", Usage: psUsage, Run: runPs, RawArgs: true},
		{Name: "tee", Summary: "read from standard input and write to standard output and files", Usage: teeUsage, Run: runTee},
		{Name: "split", Summary: "split a file into pieces", Usage: splitUsage, Run: runSplit},
		{Name: "dd", Summary: "convert and copy a file", Usage: ddUsage, Run: runDd},
		{Name: "truncate", Summary: "shrink or extend the size of a file to the specified size", Usage: truncateUsage, Run: runTruncate},
		{Name: "tree", Summary: "list contents of directories in a tree-like format", Usage: treeUsage, Run: runTree},
		// -- text --
		{Name: "head", Summary: "output the first part of files", Usage: headUsage, Run: runHead},
		{Name: "tail", Summary: "output the last part of files", Usage: tailUsage, Run: runTail},
		{Name: "wc", Summary: "print newline, word, and byte counts for each file", Usage: wcUsage, Run: runWc},
		{Name: "fmt", Summary: "simple optimal text formatter", Usage: fmtUsage, Run: runFmt},
		{Name: "column", Summary: "columnate lists", Usage: columnUsage, Run: runColumn},
		{Name: "join", Summary: "join lines of two files on a common field", Usage: joinUsage, Run: runJoin},
		{Name: "nl", Summary: "number lines of files", Usage: nlUsage, Run: runNl},
		{Name: "comm", Summary: "compare two sorted files line by line", Usage: commUsage, Run: runComm},
		{Name: "paste", Summary: "merge lines of files", Usage: pasteUsage, Run: runPaste},
		{Name: "fold", Summary: "wrap each input line to fit in specified width", Usage: foldUsage, Run: runFold},
		{Name: "rev", Summary: "reverse lines characterwise", Usage: revUsage, Run: runRev},
		{Name: "tac", Summary: "concatenate and print files in reverse", Usage: tacUsage, Run: runTac},
		{Name: "expand", Summary: "convert tabs to spaces", Usage: expandUsage, Run: runExpand},
		{Name: "unexpand", Summary: "convert spaces to tabs", Usage: unexpandUsage, Run: runUnexpand},
		{Name: "tr", Summary: "translate or delete characters", Usage: trUsage, Run: runTr},
		{Name: "grep", Summary: "print lines that match patterns", Usage: grepUsage, Run: runGrep},
		{Name: "egrep", Summary: "print lines that match extended regular expressions", Usage: grepUsage, Run: runEgrep},
		{Name: "fgrep", Summary: "print lines that contain fixed strings", Usage: grepUsage, Run: runFgrep},
		{Name: "cut", Summary: "remove sections from each line of files", Usage: cutUsage, Run: runCut},
		{Name: "uniq", Summary: "report or omit repeated lines", Usage: uniqUsage, Run: runUniq},
		{Name: "sort", Summary: "sort lines of text files", Usage: sortUsage, Run: runSort},
		// -- sed --
		{Name: "sed", Summary: "stream editor for filtering and transforming text", Usage: sedUsage, Run: runSed},
		// -- awk --
		{Name: "awk", Summary: "pattern scanning and text processing language", Usage: awkUsage, Run: runAwk, RawArgs: true},
		{Name: "gawk", Summary: "pattern scanning and text processing language", Usage: awkUsage, Run: runAwk, RawArgs: true},
		{Name: "mawk", Summary: "pattern scanning and text processing language", Usage: awkUsage, Run: runAwk, RawArgs: true},
		{Name: "nawk", Summary: "pattern scanning and text processing language", Usage: awkUsage, Run: runAwk, RawArgs: true},
		// -- data --
		{Name: "zip", Summary: "package and compress (archive) files", Usage: dataZipUsage, Run: runZip},
		{Name: "unzip", Summary: "list, test and extract compressed files in a ZIP archive", Usage: dataUnzipUsage, Run: runUnzip},
		{Name: "tar", Summary: "an archiving utility", Usage: dataTarUsage, Run: runTar},
		{Name: "gzip", Summary: "compress or expand files", Usage: dataGzipUsage, Run: runGzip},
		{Name: "gunzip", Summary: "expand gzip files", Usage: dataGzipUsage, Run: runGunzip},
		{Name: "zcat", Summary: "expand gzip files to standard output", Usage: dataGzipUsage, Run: runZcat},
		{Name: "bzip2", Summary: "decompress bzip2 files (-d; compression is not available)", Usage: zUsageFor("bzip2", "Decompress bzip2", " (not available)"), Run: runBzip2},
		{Name: "bunzip2", Summary: "decompress bzip2 files", Usage: zUsageFor("bunzip2", "Decompress bzip2", " (not available)"), Run: runBunzip2},
		{Name: "bzcat", Summary: "decompress bzip2 files to standard output", Usage: zUsageFor("bzcat", "Decompress bzip2", " (not available)"), Run: runBzcat},
		{Name: "xz", Summary: "compress or decompress .xz files", Usage: zUsageFor("xz", "Compress or decompress", ""), Run: runXz},
		{Name: "unxz", Summary: "decompress .xz files", Usage: zUsageFor("unxz", "Compress or decompress", ""), Run: runUnxz},
		{Name: "xzcat", Summary: "decompress .xz files to standard output", Usage: zUsageFor("xzcat", "Compress or decompress", ""), Run: runXzcat},
		{Name: "xxd", Summary: "make a hex dump or do the reverse", Usage: dataXxdUsage, Run: runXxd},
		{Name: "hexdump", Summary: "display file contents in hexadecimal, decimal, octal, or ascii", Usage: dataHexdumpUsage, Run: runHexdump},
		{Name: "od", Summary: "dump files in octal and other formats", Usage: dataOdUsage, Run: runOd},
		{Name: "strings", Summary: "print the sequences of printable characters in files", Usage: dataStringsUsage, Run: runStrings},
		{Name: "patch", Summary: "apply a diff file to an original", Usage: dataPatchUsage, Run: runPatch},
		{Name: "diff", Summary: "compare files line by line", Usage: dataDiffUsage, Run: runDiffCommand},
		{Name: "cmp", Summary: "compare two files byte by byte", Usage: dataCmpUsage, Run: runCmp},
		{Name: "md5sum", Summary: "compute and check MD5 message digest", Usage: dataSumUsage("md5sum", "MD5 (128-bit)"), Run: runMd5sum},
		{Name: "sha1sum", Summary: "compute and check SHA1 message digest", Usage: dataSumUsage("sha1sum", "SHA1 (160-bit)"), Run: runSha1sum},
		{Name: "sha224sum", Summary: "compute and check SHA224 message digest", Usage: dataSumUsage("sha224sum", "SHA224 (224-bit)"), Run: runSha224sum},
		{Name: "sha256sum", Summary: "compute and check SHA256 message digest", Usage: dataSumUsage("sha256sum", "SHA256 (256-bit)"), Run: runSha256sum},
		{Name: "sha384sum", Summary: "compute and check SHA384 message digest", Usage: dataSumUsage("sha384sum", "SHA384 (384-bit)"), Run: runSha384sum},
		{Name: "sha512sum", Summary: "compute and check SHA512 message digest", Usage: dataSumUsage("sha512sum", "SHA512 (512-bit)"), Run: runSha512sum},
		{Name: "cksum", Summary: "checksum and count the bytes in a file", Usage: dataCksumUsage, Run: runCksum},
		{Name: "sum", Summary: "checksum and count the blocks in a file", Usage: dataSumCmdUsage, Run: runSum},
		{Name: "base64", Summary: "base64 encode/decode data and print to standard output", Usage: dataBasencUsage("base64"), Run: runBase64},
		{Name: "base32", Summary: "base32 encode/decode data and print to standard output", Usage: dataBasencUsage("base32"), Run: runBase32},
		{Name: "jq", Summary: "command-line JSON processor", Usage: dataJqUsage, Run: runJq},
		// -- shell helpers --
		{Name: "echo", Summary: "display a line of text", Usage: echoUsage, Run: runEcho, RawArgs: true},
		{Name: "printf", Summary: "format and print data", Usage: printfUsage, Run: runPrintf, RawArgs: true},
		{Name: "test", Summary: "check file types and compare values", Usage: testUsage, Run: runTest, RawArgs: true},
		{Name: "[", Summary: "check file types and compare values", Usage: testUsage, Run: runTest, RawArgs: true},
		{Name: "seq", Summary: "print a sequence of numbers", Usage: seqUsage, Run: runSeq},
		{Name: "getopt", Summary: "parse command options (util-linux)", Usage: getoptUsage, Run: runGetopt},
		{Name: "shuf", Summary: "generate random permutations", Usage: shufUsage, Run: runShuf},
		{Name: "envsubst", Summary: "substitutes environment variables in shell format strings", Usage: envsubstUsage, Run: runEnvsubst},
		{Name: "true", Summary: "do nothing, successfully", Usage: trueUsage, Run: runTrue, RawArgs: true},
		{Name: "false", Summary: "do nothing, unsuccessfully", Usage: falseUsage, Run: runFalse, RawArgs: true},
		{Name: "whoami", Summary: "print effective user name", Usage: whoamiUsage, Run: runWhoami},
		{Name: "arch", Summary: "print machine hardware name", Usage: archUsage, Run: runArch},
		{Name: "tty", Summary: "print the file name of the terminal connected to standard input", Usage: ttyUsage, Run: runTty},
		{Name: "sync", Summary: "synchronize cached writes to persistent storage", Usage: syncUsage, Run: runSync},
		{Name: "clear", Summary: "clear the terminal screen", Usage: clearUsage, Run: runClear},
		{Name: "tput", Summary: "print terminal capabilities", Usage: tputUsage, Run: runTput},
		{Name: "hostname", Summary: "show the system host name", Usage: hostnameUsage, Run: runHostname},
		{Name: "uname", Summary: "print system information", Usage: unameUsage, Run: runUname},
		{Name: "nproc", Summary: "print the number of processing units available", Usage: nprocUsage, Run: runNproc},
		{Name: "getconf", Summary: "query system configuration variables", Usage: getconfUsage, Run: runGetconf},
		{Name: "env", Summary: "run a program in a modified environment", Usage: envUsage, Run: runEnv, RawArgs: true},
		{Name: "printenv", Summary: "print all or part of environment", Usage: printenvUsage, Run: runPrintenv},
		{Name: "which", Summary: "locate a command", Usage: whichUsage, Run: runWhich},
		{Name: "nohup", Summary: "run a command immune to hangups", Usage: nohupUsage, Run: runNohup, RawArgs: true},
		{Name: "nice", Summary: "run a program with modified scheduling priority", Usage: niceUsage, Run: runNice, RawArgs: true},
		{Name: "sleep", Summary: "delay for a specified amount of time", Usage: sleepUsage, Run: runSleep},
		{Name: "timeout", Summary: "run a command with a time limit", Usage: timeoutUsage, Run: runTimeout, RawArgs: true},
		{Name: "yes", Summary: "output a string repeatedly until killed", Usage: yesUsage, Run: runYes},
		{Name: "time", Summary: "run a command and report its resource usage", Usage: timeUsage, Run: runTime, RawArgs: true},
		{Name: "id", Summary: "print real and effective user and group IDs", Usage: idUsage, Run: runID},
		{Name: "xargs", Summary: "build and execute command lines from standard input", Usage: xargsUsage, Run: runXargs, RawArgs: true},
		{Name: "expr", Summary: "evaluate expressions", Usage: exprUsage, Run: runExpr, RawArgs: true},
		{Name: "date", Summary: "print the system date and time", Usage: dateUsage, Run: runDate},
		{Name: "bc", Summary: "an arbitrary precision calculator language", Usage: bcUsage, Run: runBc},
		// -- network (through the gate; refused without --allow-net) --
		{Name: "curl", Summary: "transfer a URL (only hosts sandsh --allow-net names)", Usage: curlUsage, Run: runCurl},
		{Name: "wget", Summary: "download a URL (only hosts sandsh --allow-net names)", Usage: wgetUsage, Run: runWget},
	}
}

// Registry is a lookup table of in-process commands.
type Registry struct {
	byName map[string]*Command
}

// NewRegistry returns the registry of every in-process command.
func NewRegistry() *Registry {
	// Pointers into the table itself: one allocation, not one per
	// command (this runs at the start of every worker).
	t := table()
	r := &Registry{byName: make(map[string]*Command, len(t))}
	for i := range t {
		r.byName[t[i].Name] = &t[i]
	}
	return r
}

// Lookup finds a command by name.
func (r *Registry) Lookup(name string) (*Command, bool) {
	c, ok := r.byName[name]
	return c, ok
}

// Commands returns every command sorted by name.
func (r *Registry) Commands() []*Command {
	out := make([]*Command, 0, len(r.byName))
	for _, c := range r.byName {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Run runs c with args (args[0] is the name it was called by), answering
// --help for commands that take options.
func (c *Command) Call(ctx context.Context, env *Env, args []string) int {
	if !c.RawArgs {
		for _, a := range args[1:] {
			if a == "--" {
				break
			}
			if a == "--help" {
				usage := c.Usage
				if usage == "" {
					usage = fmt.Sprintf("Usage: %s [OPTION]... [FILE]...\n%s.\n", c.Name, c.Summary)
				}
				fmt.Fprint(env.Stdout, usage)
				return 0
			}
		}
	}
	if cr, ok := env.Stdin.(ContextReader); ok {
		// A command waiting on input that may never come (a pipe from
		// a job that never writes) must wake when its own context
		// ends (`timeout 1 cat`), not only the run's.
		sub := *env
		sub.Stdin = &ctxStdin{ctx: ctx, r: cr}
		env = &sub
	}
	return c.Run(ctx, env, args)
}

// ContextReader is a reader whose blocking Read can also give up when a
// context ends: the shell's pipes implement it.
type ContextReader interface {
	io.Reader
	ReadContext(ctx context.Context, p []byte) (int, error)
}

// ctxStdin reads r on behalf of a command run with ctx.
type ctxStdin struct {
	ctx context.Context
	r   ContextReader
}

func (c *ctxStdin) Read(p []byte) (int, error) { return c.r.ReadContext(c.ctx, p) }

// ReadContext lets a nested command (xargs running cat) narrow ctx again.
func (c *ctxStdin) ReadContext(ctx context.Context, p []byte) (int, error) {
	return c.r.ReadContext(ctx, p)
}
