// Package mcpserver is the MCP face over worker.Session: a Model Context
// Protocol server, built on the official Go SDK, whose tools run scripts
// and read, write and list files. Each named session is one live session
// of the runtime (worker.Session): a long-lived, supervised, confined
// worker that holds the shell and the files, so a call costs what it
// does, not what the workspace holds. A call without a session gets a
// worker of its own for that call. The server itself runs no script and
// reads no session file.
//
// One Server serves any number of MCP connections at once (stdio, or
// many clients over streamable HTTP); the named sessions are the
// server's, shared by its clients.
package mcpserver
