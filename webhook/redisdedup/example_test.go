package redisdedup_test

import (
	"context"
	"log"
	"net/http"
	"os"

	"github.com/redis/go-redis/v9"

	"github.com/payorch/checkout-go/webhook"
	"github.com/payorch/checkout-go/webhook/redisdedup"
)

// Every replica of the webhook receiver uses the same Redis, so a re-sent
// event that lands on another replica is not processed twice.
func ExampleNew() {
	rdb := redis.NewClient(&redis.Options{Addr: os.Getenv("REDIS_ADDR")})
	defer rdb.Close()
	dedup, err := redisdedup.New(redisdedup.Config{Client: rdb, Prefix: "shop:webhooks:"})
	if err != nil {
		log.Fatal(err)
	}
	v, err := webhook.NewVerifier(webhook.Config{
		Username:     os.Getenv("WEBHOOK_USERNAME"),
		Password:     os.Getenv("WEBHOOK_PASSWORD"),
		Sources:      webhook.ProductionSources,
		Deduplicator: dedup, // shared by every replica
	})
	if err != nil {
		log.Fatal(err)
	}
	http.Handle("/webhooks", v.Handler(func(ctx context.Context, ev *webhook.Event) error {
		log.Printf("order %s is %s", ev.OrderID(), ev.Status())
		return nil // an error (or Redis being down) replies 500: the service re-sends
	}))
}
