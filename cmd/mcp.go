package cmd

// `sandsh mcp`: the MCP face of the runtime (package mcpserver) on
// stdio. This file holds the command and its flags only.

import (
	"context"
	"fmt"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/sandsh/sandsh/mcpserver"
	"github.com/sandsh/sandsh/worker"
)

// mcpOptions are the flags of `sandsh mcp` besides the run flags.
type mcpOptions = mcpserver.Options

// mcpHTTPFlags are the flags of `sandsh mcp --http`.
type mcpHTTPFlags struct {
	Addr, TokenFile string
	MaxClients      int
	Grace           time.Duration
}

func newMCPCmd(opts *Options) *cobra.Command {
	mo := &mcpOptions{}
	hf := &mcpHTTPFlags{}
	c := &cobra.Command{
		Use:   "mcp [flags]",
		Short: "Serve the sandbox over the Model Context Protocol (stdio, or HTTP with --http)",
		Long: `sandsh mcp is an MCP server on standard input and output, or with --http ADDR
on streamable HTTP at http://ADDR/mcp for many clients at once (bearer token
from --token-file or $SANDSH_MCP_TOKEN; without one, loopback only). Its
tools run scripts (optionally in named sessions that keep files and shell
state), and read, write and list files. Every run has the flags, policy and
limits the server was started with, e.g. sandsh mcp --timeout 10s --fs overlay --base .`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			markChanged(c, opts)
			return statusErr(runMCP(opts, mo, hf))
		},
	}
	c.Flags().IntVar(&mo.MaxSessions, "max-sessions", 16, "limit on named sessions alive at once")
	c.Flags().DurationVar(&mo.IdleTimeout, "session-idle", 30*time.Minute, "end a session unused for this long")
	c.Flags().StringVar(&mo.MaxMessage, "max-message", "16MiB", "largest JSON-RPC message the server reads; a bigger one gets an error reply and is skipped")
	c.Flags().IntVar(&mo.Pool, "pool", 2, "workers kept started and confined for new sessions and calls without a session (0: start each when needed)")
	c.Flags().StringVar(&mo.MaxResult, "max-result-output", "1MiB", "most bytes of each of stdout and stderr a run's result carries (head and tail; a call's max_output may ask for less)")
	c.Flags().StringVar(&mo.StateDir, "state-dir", "", "keep named sessions in `DIR` as NAME.st state files: a session starts from its file, and is saved there when it expires or the server stops")
	c.Flags().StringVar(&hf.Addr, "http", "", "serve streamable HTTP on `ADDR` (host:port) instead of stdio")
	c.Flags().StringVar(&hf.TokenFile, "token-file", "", "with --http: the bearer token clients must send, from `FILE` (default $"+mcpserver.TokenEnv+")")
	c.Flags().IntVar(&hf.MaxClients, "max-clients", 256, "with --http: limit on MCP client sessions held at once")
	c.Flags().DurationVar(&hf.Grace, "shutdown-grace", 10*time.Second, "with --http: on SIGTERM, how long calls in flight may finish before they are cancelled")
	return c
}

// runMCP serves MCP on the command's standard streams until its input
// ends, or with --http on HTTP until SIGTERM or SIGINT.
func runMCP(o *Options, mo *mcpOptions, hf *mcpHTTPFlags) int {
	mo.Version = Version
	if hf.Addr == "" && (hf.TokenFile != "") {
		return worker.ReportSetupError(o.IO.Err, worker.Usagef("--token-file needs --http"))
	}
	var token string
	if hf.Addr != "" {
		var err error
		if token, err = mcpserver.LoadToken(hf.TokenFile, o.IO.Getenv); err != nil {
			return worker.ReportSetupError(o.IO.Err, err)
		}
	}
	srv, err := mcpserver.New(o, mo)
	if err != nil {
		return worker.ReportSetupError(o.IO.Err, err)
	}
	defer srv.Close()
	// The server passes each call's data through (a write_file's
	// content, a run's output) and keeps each session's checkpoint: its
	// Go heap is held near --max-memory, so one call's garbage is
	// collected before the next one adds its own.
	if n, err := worker.ParseBytes(o.MaxMemory); err == nil && n > 0 {
		debug.SetMemoryLimit(n)
	}
	if hf.Addr != "" {
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
		defer stop()
		err := srv.ServeHTTP(ctx, mcpserver.HTTPOptions{Addr: hf.Addr, Token: token, MaxClients: hf.MaxClients, Grace: hf.Grace,
			Ready: func(addr string) {
				fmt.Fprintf(o.IO.Err, "sandsh: mcp: serving http://%s%s\n", addr, mcpserver.MCPPath)
			}})
		if err != nil {
			return worker.ReportSetupError(o.IO.Err, err)
		}
		return 0
	}
	if err := srv.ServeStdio(context.Background(), o.IO.In, o.IO.Out); err != nil {
		fmt.Fprintf(o.IO.Err, "sandsh: mcp: %v\n", err)
		return 1
	}
	return 0
}
