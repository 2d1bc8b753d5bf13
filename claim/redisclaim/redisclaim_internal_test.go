package redisclaim

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// An answer that arrives as the call's own timer is stopped is still the
// answer. (The timer's cancellation raced it: now and then a call Redis
// answered failed with "no answer from Redis", so a granted claim was
// released and the caller answered 500.)
func TestBoundedKeepsAnAnswerThatCameInTime(t *testing.T) {
	s := &Store{rdb: redis.NewClient(&redis.Options{}), timeout: time.Minute}
	defer s.rdb.Close()
	failed := 0
	for range 20000 {
		_, err := s.bounded(context.Background(), "test", func(context.Context) (any, error) {
			runtime.Gosched()
			return "ok", nil
		})
		if err != nil {
			failed++
		}
	}
	if failed > 0 {
		t.Fatalf("%d of 20,000 answered calls failed", failed)
	}
}
