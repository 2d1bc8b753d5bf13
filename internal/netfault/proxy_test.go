package netfault

import (
	"bufio"
	"net"
	"testing"
	"time"
)

// echo serves lines back to each connection until the test ends.
func echo(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					if _, err := c.Write([]byte(line)); err != nil {
						return
					}
				}
			}()
		}
	}()
	return l.Addr().String()
}

// roundTrip sends a line through c and reads the answer, or fails.
func roundTrip(c net.Conn) (string, error) {
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write([]byte("ping\n")); err != nil {
		return "", err
	}
	return bufio.NewReader(c).ReadString('\n')
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// The proxy forwards; Cut ends the connections open now; DropNext loses
// the next answer and cuts; Close refuses new connections.
func TestProxy(t *testing.T) {
	p := NewProxy(t, echo(t))
	c := dial(t, p.Addr)
	if got, err := roundTrip(c); err != nil || got != "ping\n" {
		t.Fatalf("forwarded: %q, %v", got, err)
	}
	if n := p.Cut(); n != 1 {
		t.Fatalf("Cut ended %d connections, want 1", n)
	}
	if _, err := roundTrip(c); err == nil {
		t.Fatal("a cut connection still answered")
	}

	c = dial(t, p.Addr)
	p.DropNext(ToClient)
	if got, err := roundTrip(c); err == nil {
		t.Fatalf("the dropped answer arrived: %q", got)
	}
	c = dial(t, p.Addr)
	if got, err := roundTrip(c); err != nil || got != "ping\n" {
		t.Fatalf("after the drop: %q, %v", got, err)
	}

	p.Close()
	if c, err := net.Dial("tcp", p.Addr); err == nil {
		defer c.Close()
		if _, err := roundTrip(c); err == nil {
			t.Fatal("a closed proxy still forwards")
		}
	}
}
