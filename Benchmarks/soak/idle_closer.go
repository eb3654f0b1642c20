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
// file (flushed at SIGTERM/SIGINT, then the server exits); the answer is 200 "ok".
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
	"syscall"
	"time"
)

const idleSentinel = time.Hour

type randomIdleConn struct{ net.Conn }

func (c randomIdleConn) SetReadDeadline(t time.Time) error {
	if !t.IsZero() && time.Until(t) > idleSentinel/2 {
		t = time.Now().Add(time.Duration(rand.Int63n(int64(2 * time.Second))))
	}
	return c.Conn.SetReadDeadline(t)
}

type listener struct{ net.Listener }

func (l listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return randomIdleConn{c}, nil
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
		os.Exit(0)
	}()
	server.Serve(listener{ln})
}
