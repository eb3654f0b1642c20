// A multipart upload sink for Benchmarks/soak.sh that closes every kept-alive connection after it
// has been idle a random 0-2 s (a different draw for each idle spell of each connection).
//
// Go's net/http closes an idle connection when the read deadline it sets for the idle spell
// (Server.IdleTimeout) passes before the next request's first bytes arrive. The listener
// hands out connections whose SetReadDeadline turns that one deadline (IdleTimeout is set to
// an hour, no other timeout is set) into now + rand[0, 2 s): the close is Go's own idle close,
// only earlier and at random.
//
// Each file part of a POST is read whole and logged as "FILENAME<TAB>BYTES<TAB>MD5" to the log
// file (flushed at SIGTERM/SIGINT, then the server exits); the answer is 200 "ok". At exit,
// LOGFILE.connections gets "N connections, M closed idle".
//
// Usage: idle_closer ADDRESS LOGFILE    (ADDRESS like 127.0.0.1:8080); stdlib only.
package main

import (
	"bufio"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

const idleSentinel = time.Hour

var accepted, idleCloses int64

// randomIdleConn replaces the idle deadline of each idle spell with a random one, and counts the
// closes that come from it (a close after the idle deadline passed, before any other deadline).
type randomIdleConn struct {
	net.Conn
	idleUntil atomic.Int64 // the current idle spell's deadline (Unix ns), 0 outside one
}

func (c *randomIdleConn) SetReadDeadline(t time.Time) error {
	if !t.IsZero() && time.Until(t) > idleSentinel/2 {
		t = time.Now().Add(time.Duration(rand.Int63n(int64(2 * time.Second))))
		c.idleUntil.Store(t.UnixNano())
	} else {
		c.idleUntil.Store(0)
	}
	return c.Conn.SetReadDeadline(t)
}

func (c *randomIdleConn) Close() error {
	if until := c.idleUntil.Load(); until != 0 && time.Now().UnixNano() >= until {
		atomic.AddInt64(&idleCloses, 1)
	}
	return c.Conn.Close()
}

type listener struct{ net.Listener }

func (l listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	atomic.AddInt64(&accepted, 1)
	return &randomIdleConn{Conn: c}, nil
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: idle_closer ADDRESS LOGFILE")
		os.Exit(2)
	}
	out, err := os.Create(os.Args[2])
	if err != nil {
		panic(err)
	}
	log := bufio.NewWriterSize(out, 1<<20)
	var mu sync.Mutex

	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reader, err := r.MultipartReader()
		if err != nil {
			http.Error(w, "not multipart", http.StatusBadRequest)
			return
		}
		var lines []string
		for {
			part, err := reader.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				http.Error(w, "bad multipart", http.StatusBadRequest)
				return
			}
			hash := md5.New()
			n, err := io.Copy(hash, part)
			if err != nil {
				http.Error(w, "short part", http.StatusBadRequest)
				return
			}
			if part.FileName() != "" {
				lines = append(lines, fmt.Sprintf("%s\t%d\t%s\n", part.FileName(), n, hex.EncodeToString(hash.Sum(nil))))
			}
		}
		mu.Lock()
		for _, line := range lines {
			log.WriteString(line)
		}
		mu.Unlock()
		io.WriteString(w, "ok\n")
	})

	ln, err := net.Listen("tcp", os.Args[1])
	if err != nil {
		panic(err)
	}
	server := &http.Server{Handler: handler, IdleTimeout: idleSentinel}
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-signals
		mu.Lock()
		log.Flush()
		out.Close()
		os.WriteFile(os.Args[2]+".connections", []byte(fmt.Sprintf("%d connections, %d closed idle\n",
			atomic.LoadInt64(&accepted), atomic.LoadInt64(&idleCloses))), 0o644)
		os.Exit(0)
	}()
	server.Serve(listener{ln})
}
