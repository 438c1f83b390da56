package builtins

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

const curlUsage = `Usage: curl [options...] <url>...
Transfer a URL over HTTP or HTTPS through the sandbox's network gate
(sandsh --allow-net; without it every request is refused).

  -A, --user-agent NAME     send User-Agent NAME
  -d, --data DATA           HTTP POST data (@FILE reads a file, @- stdin)
      --data-binary DATA    HTTP POST data, exactly as given
      --data-raw DATA       HTTP POST data, @ not special
      --data-urlencode DATA HTTP POST data, URL-encoded
  -e, --referer URL         send Referer URL
  -f, --fail                fail fast with no output on HTTP errors
  -G, --get                 put the -d data in the URL and use GET
  -H, --header LINE         pass a custom header LINE to the server
  -I, --head                show the headers only (HEAD request)
  -i, --include             include the response headers in the output
  -k, --insecure            accepted; certificates are still verified
  -L, --location            follow redirects
      --max-redirs NUM      maximum number of redirects allowed
  -m, --max-time SECONDS    maximum time allowed for the transfer
  -o, --output FILE         write to FILE instead of stdout
  -O, --remote-name         write output to a file named as the remote file
  -s, --silent              silent mode
  -S, --show-error          show errors even when -s is used
  -u, --user USER:PASSWORD  server user and password
      --url URL             URL to work with
  -v, --verbose             show the request and response headers on stderr
  -w, --write-out FORMAT    use output FORMAT after completion
  -X, --request METHOD      specify the request method to use
      --help                display this help and exit
`

var curlGetopt = Getopt{
	Same:  map[string]string{"data-binary": "d", "data-raw": "d", "data-urlencode": "d"},
	Short: "A:d:e:fGH:IikLm:o:OsSu:vw:X:N#",
	Long: []string{"user-agent=", "data=", "data-binary=", "data-raw=", "data-urlencode=", "referer=", "fail",
		"fail-with-body", "get", "header=", "head", "include", "insecure", "location", "max-redirs=", "max-time=",
		"output=", "remote-name", "silent", "show-error", "user=", "url=", "verbose", "write-out=", "request=",
		"compressed", "connect-timeout=", "retry=", "no-buffer", "progress-bar"},
	LongAlias: map[string]string{"user-agent": "A", "data": "d", "referer": "e", "fail": "f", "get": "G",
		"header": "H", "head": "I", "include": "i", "insecure": "k", "location": "L", "max-time": "m",
		"output": "o", "remote-name": "O", "silent": "s", "show-error": "S", "user": "u", "verbose": "v",
		"write-out": "w", "request": "X", "no-buffer": "N", "progress-bar": "#"},
}

// curl's exit statuses (curl(1), "EXIT CODES").
const (
	curlUnsupported   = 1
	curlUsageErr      = 2
	curlMalformed     = 3
	curlResolve       = 6
	curlConnect       = 7
	curlHTTPError     = 22
	curlWriteError    = 23
	curlReadError     = 26
	curlTimeout       = 28
	curlTooManyRedirs = 47
	curlRecvError     = 56
	curlTLS           = 60
	curlTooBig        = 63
)

// curlStatus maps a refused or failed request to curl's status. A
// refusal by the sandbox is 7, "failed to connect": from the script's
// side nothing was reached.
func curlStatus(k NetErrorKind) int {
	switch k {
	case NetRestricted, NetConnect, NetTooMany:
		return curlConnect
	case NetURL:
		return curlMalformed
	case NetResolve:
		return curlResolve
	case NetTimeout:
		return curlTimeout
	case NetTooBig:
		return curlTooBig
	case NetRedirects:
		return curlTooManyRedirs
	case NetTLS:
		return curlTLS
	}
	return curlRecvError
}

type curlOpts struct {
	silent, showErr, fail, failBody, follow, head, include, verbose, get bool
	method, userAgent, referer, user, writeOut                           string
	headers                                                              [][2]string
	data                                                                 []string
	hasData                                                              bool
	maxRedirs                                                            int
	maxTime                                                              time.Duration
	outputs                                                              []string // "" for -O
	urls                                                                 []string
}

func runCurl(ctx context.Context, env *Env, args []string) int {
	o, status, ok := curlParse(env, args[1:])
	if !ok {
		return status
	}
	if len(o.urls) == 0 {
		fmt.Fprintf(env.Stderr, "curl: no URL specified\ncurl: try 'curl --help' for more information\n")
		return curlUsageErr
	}
	status = 0
	for i, u := range o.urls {
		out := "-"
		if i < len(o.outputs) {
			out = o.outputs[i]
		}
		if st := curlOne(ctx, env, o, u, out); st != 0 {
			status = st
		}
		if ctx.Err() != nil {
			return 130
		}
	}
	return status
}

func curlParse(env *Env, args []string) (*curlOpts, int, bool) {
	opts, operands, err := curlGetopt.Parse(args)
	if err != nil {
		fmt.Fprintf(env.Stderr, "curl: %v\ncurl: try 'curl --help' for more information\n", err)
		return nil, curlUsageErr, false
	}
	o := &curlOpts{urls: operands}
	for _, op := range opts {
		switch op.Name {
		case "A":
			o.userAgent = op.Value
		case "d", "data-binary", "data-raw", "data-urlencode":
			d, err := curlData(env, op.Name, op.Value)
			if err != nil {
				fmt.Fprintf(env.Stderr, "curl: %v\n", err)
				return nil, curlReadError, false
			}
			o.data, o.hasData = append(o.data, d), true
		case "e":
			o.referer = op.Value
		case "f":
			o.fail = true
		case "fail-with-body":
			o.failBody = true
		case "G":
			o.get = true
		case "H":
			name, val, ok := strings.Cut(op.Value, ":")
			if !ok || strings.TrimSpace(name) == "" {
				continue // curl ignores a header line without a colon
			}
			o.headers = append(o.headers, [2]string{strings.TrimSpace(name), strings.TrimSpace(val)})
		case "I":
			o.head = true
		case "i":
			o.include = true
		case "L":
			o.follow = true
		case "max-redirs":
			n, err := strconv.Atoi(op.Value)
			if err != nil || n < -1 {
				fmt.Fprintf(env.Stderr, "curl: option --max-redirs: expected a proper numerical parameter\n")
				return nil, curlUsageErr, false
			}
			o.maxRedirs = n
		case "m":
			secs, err := strconv.ParseFloat(op.Value, 64)
			if err != nil || secs < 0 || secs > 1e9 {
				fmt.Fprintf(env.Stderr, "curl: option --max-time: expected a proper numerical parameter\n")
				return nil, curlUsageErr, false
			}
			o.maxTime = time.Duration(secs * float64(time.Second))
		case "o":
			o.outputs = append(o.outputs, op.Value)
		case "O":
			o.outputs = append(o.outputs, "")
		case "s":
			o.silent = true
		case "S":
			o.showErr = true
		case "u":
			o.user = op.Value
		case "url":
			o.urls = append(o.urls, op.Value)
		case "v":
			o.verbose = true
		case "w":
			o.writeOut = op.Value
		case "X":
			o.method = op.Value
		}
		// -k, --compressed, --connect-timeout, --retry, -N, -#: accepted;
		// the gate always verifies certificates and bounds time itself.
	}
	return o, 0, true
}

// curlData turns one -d/--data-* argument into the bytes it sends.
func curlData(env *Env, kind, v string) (string, error) {
	switch kind {
	case "data-raw":
		return v, nil
	case "data-urlencode":
		// "content", "=content", "name=content", "@file", "name@file"
		name, content := "", v
		if i := strings.IndexAny(v, "=@"); i >= 0 {
			name = v[:i]
			if v[i] == '@' {
				b, err := netReadData(env, v[i+1:])
				if err != nil {
					return "", fmt.Errorf("Failed to open %s: %s", v[i+1:], ErrText(err))
				}
				content = string(b)
			} else {
				content = v[i+1:]
			}
		}
		enc := url.QueryEscape(content)
		if name != "" {
			return name + "=" + enc, nil
		}
		return enc, nil
	}
	file, ok := strings.CutPrefix(v, "@")
	if !ok {
		return v, nil
	}
	b, err := netReadData(env, file)
	if err != nil {
		return "", fmt.Errorf("Failed to open %s: %s", file, ErrText(err))
	}
	if kind == "d" {
		// -d @file drops carriage returns and newlines, as curl does.
		return strings.NewReplacer("\r", "", "\n", "").Replace(string(b)), nil
	}
	return string(b), nil
}

// curlOne fetches one URL and writes it to out ("-" for stdout, "" for
// the remote name).
func curlOne(ctx context.Context, env *Env, o *curlOpts, rawURL, out string) int {
	start := time.Now()
	req := &NetRequest{Method: o.method, URL: netURL(rawURL), FollowRedirects: o.follow, MaxRedirects: o.maxRedirs, Timeout: o.maxTime}
	body := strings.Join(o.data, "&")
	switch {
	case o.get && o.hasData:
		sep := "?"
		if strings.Contains(req.URL, "?") {
			sep = "&"
		}
		req.URL += sep + body
	case o.hasData:
		req.Body = []byte(body)
		if req.Method == "" {
			req.Method = "POST"
		}
	}
	if req.Method == "" {
		req.Method = "GET"
		if o.head {
			req.Method = "HEAD"
		}
	}
	ua := "curl/8.5.0"
	if o.userAgent != "" {
		ua = o.userAgent
	}
	req.Header = append(req.Header, [2]string{"User-Agent", ua}, [2]string{"Accept", "*/*"})
	if o.referer != "" {
		req.Header = append(req.Header, [2]string{"Referer", o.referer})
	}
	if o.user != "" {
		req.Header = append(req.Header, [2]string{"Authorization", "Basic " + base64.StdEncoding.EncodeToString([]byte(o.user))})
	}
	if req.Body != nil && !curlHasHeader(o.headers, "Content-Type") {
		req.Header = append(req.Header, [2]string{"Content-Type", "application/x-www-form-urlencoded"})
	}
	req.Header = curlMerge(req.Header, o.headers)
	if out == "" {
		out = netRemoteName(rawURL)
		if out == "" {
			curlErr(env, o, false, curlWriteError, "Remote file name has no length!")
			return curlWriteError
		}
	}
	if o.verbose {
		u, _ := url.Parse(req.URL)
		if u != nil {
			fmt.Fprintf(env.Stderr, "> %s %s HTTP/1.1\n> Host: %s\n", req.Method, u.RequestURI(), u.Host)
		}
		for _, h := range req.Header {
			fmt.Fprintf(env.Stderr, "> %s: %s\n", h[0], h[1])
		}
		fmt.Fprintf(env.Stderr, ">\n")
	}
	resp, ne := netDo(ctx, env, req)
	if ne != nil {
		if ctx.Err() != nil {
			return 130
		}
		st := curlStatus(ne.Kind)
		// The sandbox's own refusals show even under -s: a script's
		// author must learn that the sandbox, not the server, said no.
		curlErr(env, o, ne.Kind == NetRestricted || ne.Kind == NetTooMany || ne.Kind == NetTooBig, st, ne.Msg)
		curlWriteOut(env, o, nil, req, st, time.Since(start))
		return st
	}
	if o.verbose {
		fmt.Fprintf(env.Stderr, "< %s %d %s\n", resp.Proto, resp.Status, resp.StatusText)
		for _, h := range resp.Header {
			fmt.Fprintf(env.Stderr, "< %s: %s\n", h[0], h[1])
		}
		fmt.Fprintf(env.Stderr, "<\n")
	}
	status := 0
	if (o.fail || o.failBody) && resp.Status >= 400 {
		status = curlHTTPError
		curlErr(env, o, false, status, fmt.Sprintf("The requested URL returned error: %d", resp.Status))
		if !o.failBody {
			curlWriteOut(env, o, resp, req, status, time.Since(start))
			return status
		}
	}
	var buf []byte
	if o.include || o.head {
		buf = append(buf, fmt.Sprintf("%s %d %s\r\n", resp.Proto, resp.Status, resp.StatusText)...)
		for _, h := range resp.Header {
			buf = append(buf, h[0]+": "+h[1]+"\r\n"...)
		}
		buf = append(buf, "\r\n"...)
	}
	if !o.head {
		buf = append(buf, resp.Body...)
	}
	if out == "-" {
		if _, err := env.Stdout.Write(buf); err != nil {
			if IsBrokenPipe(err) {
				return StatusBrokenPipe
			}
			curlErr(env, o, false, curlWriteError, "Failure writing output to destination")
			return curlWriteError
		}
	} else if err := netWriteFile(env, out, buf); err != nil {
		curlErr(env, o, false, curlWriteError, fmt.Sprintf("Failed to open the file %s: %s", out, ErrText(err)))
		return curlWriteError
	}
	curlWriteOut(env, o, resp, req, status, time.Since(start))
	return status
}

func curlHasHeader(h [][2]string, name string) bool {
	for _, kv := range h {
		if strings.EqualFold(kv[0], name) {
			return true
		}
	}
	return false
}

// curlMerge lets -H replace a default header of the same name; an empty
// value removes it, as "-H 'Accept:'" does in curl.
func curlMerge(defaults, user [][2]string) [][2]string {
	var out [][2]string
	for _, d := range defaults {
		if !curlHasHeader(user, d[0]) {
			out = append(out, d)
		}
	}
	for _, u := range user {
		if u[1] != "" {
			out = append(out, u)
		}
	}
	return out
}

// curlErr prints "curl: (N) message" unless -s hides it (-S shows it
// again); always shows the sandbox's own refusals.
func curlErr(env *Env, o *curlOpts, always bool, status int, msg string) {
	if o.silent && !o.showErr && !always {
		return
	}
	fmt.Fprintf(env.Stderr, "curl: (%d) %s\n", status, msg)
}

// curlWriteOut prints -w's format: %{variable}, %%, and \n \r \t \\.
func curlWriteOut(env *Env, o *curlOpts, resp *NetResponse, req *NetRequest, exit int, took time.Duration) {
	if o.writeOut == "" {
		return
	}
	f := o.writeOut
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		c := f[i]
		switch {
		case c == '\\' && i+1 < len(f) && strings.IndexByte(`nrt\`, f[i+1]) >= 0:
			i++
			b.WriteByte(map[byte]byte{'n': '\n', 'r': '\r', 't': '\t', '\\': '\\'}[f[i]])
		case c == '%' && i+1 < len(f) && f[i+1] == '%':
			i++
			b.WriteByte('%')
		case c == '%' && i+1 < len(f) && f[i+1] == '{':
			end := strings.IndexByte(f[i:], '}')
			if end < 0 {
				b.WriteString(f[i:])
				i = len(f)
				continue
			}
			name := f[i+2 : i+end]
			i += end
			v, ok := curlVar(name, resp, req, exit, took)
			if !ok {
				fmt.Fprintf(env.Stderr, "curl: unknown --write-out variable: '%s'\n", name)
				continue
			}
			b.WriteString(v)
		default:
			b.WriteByte(c)
		}
	}
	fmt.Fprint(env.Stdout, b.String())
}

func curlVar(name string, resp *NetResponse, req *NetRequest, exit int, took time.Duration) (string, bool) {
	code, size, redirs, ctype, eff, ver := 0, 0, 0, "", req.URL, "0"
	if resp != nil {
		code, size, ctype, eff = resp.Status, len(resp.Body), netHeaderValue(resp.Header, "Content-Type"), resp.URL
		redirs = max(len(resp.Hops)-1, 0)
		ver = strings.TrimPrefix(resp.Proto, "HTTP/")
	}
	switch name {
	case "http_code", "response_code":
		return fmt.Sprintf("%03d", code), true
	case "size_download":
		return strconv.Itoa(size), true
	case "num_redirects":
		return strconv.Itoa(redirs), true
	case "content_type":
		return ctype, true
	case "url_effective":
		return eff, true
	case "url":
		return req.URL, true
	case "method":
		return req.Method, true
	case "http_version":
		return ver, true
	case "exitcode":
		return strconv.Itoa(exit), true
	case "time_total":
		return fmt.Sprintf("%.6f", took.Seconds()), true
	}
	return "", false
}
