package redisclaim_test

import (
	"context"
	"log"
	"net/http"
	"os"

	"github.com/redis/go-redis/v9"

	"github.com/payorch/checkout-go/claim/redisclaim"
	"github.com/payorch/checkout-go/webhook"
)

// Every replica of the webhook receiver uses the same Redis, so a re-sent
// event that lands on another replica is not processed twice; the same
// store serves the reconciler (reconcile.Config.Store).
func ExampleNew() {
	rdb := redis.NewClient(&redis.Options{Addr: os.Getenv("REDIS_ADDR")})
	defer rdb.Close()
	store, err := redisclaim.New(redisclaim.Config{Client: rdb, Prefix: "shop:"})
	if err != nil {
		log.Fatal(err)
	}
	v, err := webhook.NewVerifier(webhook.Config{
		Username: os.Getenv("WEBHOOK_USERNAME"),
		Password: os.Getenv("WEBHOOK_PASSWORD"),
		Sources:  webhook.ProductionSources,
		Claims:   store, // shared by every replica, and by the reconciler
	})
	if err != nil {
		log.Fatal(err)
	}
	http.Handle("/webhooks", v.Handler(func(ctx context.Context, ev *webhook.Event) error {
		log.Printf("order %s is %s", ev.OrderID(), ev.Status())
		return nil // an error (or Redis being down) replies 500: the service re-sends
	}))
}
