package checkout

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gopkg.in/h2non/gock.v1"
)

// The replies the service's documents publish for the customer calls
// (juspay/juspay-sdk-integration-demo, api-reference/customer/…/response*.json).
const (
	customerCreatedReply = `{
  "id": "cst_afdeuvmfhs3j1acm",
  "object": "customer",
  "object_reference_id": "customer@gmail.com",
  "mobile_country_code": "91",
  "mobile_number": "9988776655",
  "email_address": "customer@gmail.com",
  "first_name": "John",
  "last_name": "Smith",
  "date_created": "2020-03-17T14:13:37Z",
  "last_updated": "2020-03-17T14:13:37Z",
  "juspay": {
    "client_auth_token": "tkn_24543c6a278f45d680d09edb32e78061",
    "client_auth_token_expiry": "2020-03-17T14:28:37Z"
  }
}`
	customerUpdatedReply = `{
  "id": "cst_om2l6ctlptxwxuzj",
  "object": "customer",
  "object_reference_id": "customer@gmail.com",
  "mobile_number": "9988776644",
  "date_created": "2016-08-02T08:07:52+0000",
  "last_updated": "2016-08-02T08:07:52+0000",
  "email_address": "customer@gmail.com",
  "first_name": "Jon",
  "last_name": "Snow",
  "mobile_country_code": "91"
}`
)

// rawQuery matches the request's encoded query exactly.
func rawQuery(want string) gock.MatchFunc {
	return func(r *http.Request, _ *gock.Request) (bool, error) { return r.URL.RawQuery == want, nil }
}

func TestCreateCustomerGock(t *testing.T) {
	c := newGockClient(t, gockBase)
	gock.New(gockBase).Post("^/customers$").
		AddMatcher(exactHeaders(gockHeaders("application/x-www-form-urlencoded", map[string]string{"X-Routing-Id": "customer@gmail.com"}))).
		AddMatcher(rawQuery("")).
		BodyString("^" + regexpQuote("email_address=customer%40gmail.com&first_name=John&last_name=Smith&mobile_country_code=91"+
			"&mobile_number=9988776655&object_reference_id=customer%40gmail.com&options.get_client_auth_token=true") + "$").
		Reply(200).BodyString(customerCreatedReply)
	cu, err := c.CreateCustomer(context.Background(), &CustomerRequest{
		ObjectReferenceID: "customer@gmail.com",
		MobileNumber:      "9988776655", EmailAddress: "customer@gmail.com",
		FirstName: "John", LastName: "Smith", MobileCountryCode: "91",
		ClientAuthToken: true,
	}, WithRoutingID("customer@gmail.com"))
	require.NoError(t, err)
	created := time.Date(2020, 3, 17, 14, 13, 37, 0, time.UTC)
	require.Equal(t, Customer{
		ID: "cst_afdeuvmfhs3j1acm", Object: "customer", ObjectReferenceID: "customer@gmail.com",
		MobileNumber: "9988776655", MobileCountryCode: "91", EmailAddress: "customer@gmail.com",
		FirstName: "John", LastName: "Smith", DateCreated: Timestamp{created}, LastUpdated: Timestamp{created},
		ClientAuth: ClientAuth{"tkn_24543c6a278f45d680d09edb32e78061", Timestamp{created.Add(15 * time.Minute)}},
		Raw:        RawJSON(customerCreatedReply),
	}, *cu)
}

func TestGetCustomerGock(t *testing.T) {
	c := newGockClient(t, gockBase)
	gock.New(gockBase).Get("^/customers/cst_om2l6ctlptxwxuzj$").
		AddMatcher(exactHeaders(gockHeaders("", nil))).
		AddMatcher(rawQuery("options.get_client_auth_token=true")).
		Reply(200).BodyString(customerCreatedReply)
	gock.New(gockBase).Get("^/customers/customer@gmail.com$").
		AddMatcher(exactHeaders(gockHeaders("", map[string]string{"Version": "2024-02-01"}))).
		AddMatcher(rawQuery("")).
		Reply(200).BodyString(customerUpdatedReply)

	cu, err := c.GetCustomer(context.Background(), "cst_om2l6ctlptxwxuzj", &CustomerQuery{ClientAuthToken: true})
	require.NoError(t, err)
	require.EqualValues(t, "tkn_24543c6a278f45d680d09edb32e78061", cu.ClientAuthToken)

	cu, err = c.GetCustomer(context.Background(), "customer@gmail.com", nil, WithAPIVersion("2024-02-01"))
	require.NoError(t, err)
	require.Equal(t, "cst_om2l6ctlptxwxuzj", cu.ID)
	require.Equal(t, "Jon", cu.FirstName)
	require.Equal(t, time.Date(2016, 8, 2, 8, 7, 52, 0, time.UTC), cu.DateCreated.UTC(), "the +0000 form is read")
	require.Empty(t, cu.ClientAuthToken)
	require.True(t, cu.ClientAuthTokenExpiry.IsZero())
}

func TestUpdateCustomerGock(t *testing.T) {
	c := newGockClient(t, gockBase)
	gock.New(gockBase).Post("^/customers/cst_om2l6ctlptxwxuzj$").
		AddMatcher(exactHeaders(gockHeaders("application/x-www-form-urlencoded", nil))).
		BodyString("^" + regexpQuote("email_address=customer%40gmail.com&first_name=Jon&last_name=Snow&mobile_country_code=91"+
			"&mobile_number=9988776644") + "$").
		Reply(200).BodyString(customerUpdatedReply)
	cu, err := c.UpdateCustomer(context.Background(), "cst_om2l6ctlptxwxuzj", &UpdateCustomerRequest{
		MobileNumber: "9988776644", EmailAddress: "customer@gmail.com", FirstName: "Jon", LastName: "Snow", MobileCountryCode: "91",
	})
	require.NoError(t, err)
	require.Equal(t, "9988776644", cu.MobileNumber)
	require.Equal(t, "Snow", cu.LastName)
	require.Equal(t, time.Date(2016, 8, 2, 8, 7, 52, 0, time.UTC), cu.LastUpdated.UTC())
}

// Only the fields set are sent: a one-field update is one key.
func TestUpdateCustomerSendsOnlyWhatIsSet(t *testing.T) {
	c := newGockClient(t, gockBase)
	gock.New(gockBase).Post("^/customers/").
		AddMatcher(func(r *http.Request, _ *gock.Request) (bool, error) {
			return r.URL.EscapedPath() == "/customers/cst%2F1", nil
		}).
		BodyString("^first_name=Asha$").
		Reply(200).BodyString(`{"id":"cst/1","first_name":"Asha"}`)
	cu, err := c.UpdateCustomer(context.Background(), "cst/1", &UpdateCustomerRequest{FirstName: "Asha"})
	require.NoError(t, err)
	require.Equal(t, "Asha", cu.FirstName)
}

func TestCustomerValidationSendsNothing(t *testing.T) {
	srv := newRecorder(t)
	c := newTestClient(t, srv.URL)
	ctx := context.Background()
	_, err := c.CreateCustomer(ctx, &CustomerRequest{FirstName: "A\xffsha"})
	requireProblemPaths(t, err, []string{"object_reference_id", "first_name", "mobile_number"})
	require.ErrorContains(t, err, "checkout: create customer: invalid request")
	_, err = c.CreateCustomer(ctx, nil)
	requireProblemPaths(t, err, []string{""})
	_, err = c.GetCustomer(ctx, " ", nil)
	requireProblemPaths(t, err, []string{"customer_id"})
	_, err = c.GetCustomer(ctx, "..", nil)
	requireProblemPaths(t, err, []string{"customer_id"})
	_, err = c.UpdateCustomer(ctx, "", nil)
	requireProblemPaths(t, err, []string{"customer_id", ""})
	_, err = c.UpdateCustomer(ctx, "cst_1", &UpdateCustomerRequest{LastName: "\xff"})
	requireProblemPaths(t, err, []string{"last_name"})
	require.Zero(t, srv.count.Load())
}

// A write that may have reached the service is not resent; a read is.
func TestCustomerRetries(t *testing.T) {
	srv := newRecorder(t, reply{status: 500, body: `{"status":"ERROR"}`})
	c := newTestClient(t, srv.URL)
	ctx := context.Background()
	_, err := c.CreateCustomer(ctx, &CustomerRequest{ObjectReferenceID: "cust-0001", MobileNumber: "9988776655"})
	require.ErrorIs(t, err, ErrServer)
	require.EqualValues(t, 1, srv.count.Load(), "create is not retried after a 500")
	_, err = c.UpdateCustomer(ctx, "cst_1", &UpdateCustomerRequest{FirstName: "A"})
	require.ErrorIs(t, err, ErrServer)
	require.EqualValues(t, 2, srv.count.Load(), "update is not retried after a 500")
	_, err = c.GetCustomer(ctx, "cst_1", nil)
	require.ErrorIs(t, err, ErrServer)
	require.EqualValues(t, 2+1+fastRetry.MaxRetries, srv.count.Load(), "get is retried")
}

// A customer decoded as the calls decode it keeps the body in Raw and
// encodes its typed fields under the service's keys, the token included.
func TestCustomerJSON(t *testing.T) {
	cu, err := decodeReply[Customer]([]byte(customerCreatedReply))
	require.NoError(t, err)
	require.Equal(t, customerCreatedReply, string(cu.Raw), "Raw, byte for byte")
	out, err := json.Marshal(cu)
	require.NoError(t, err)
	require.JSONEq(t, customerCreatedReply, string(out))

	odd, err := decodeReply[Customer]([]byte(`{"id":"cst_1","date_created":"yesterday","juspay":"FILTERED","mobile_number":9988776655}`))
	require.NoError(t, err)
	require.Equal(t, "cst_1", odd.ID)
	require.Empty(t, odd.MobileNumber, "a number where the service writes text is left to Raw")
	require.Contains(t, string(odd.Raw), "9988776655")
	require.True(t, odd.DateCreated.IsZero())
	require.Empty(t, odd.ClientAuthToken)
	_, err = decodeReply[Customer]([]byte(`[]`))
	require.Error(t, err)
}

// The query of GetCustomer reaches the service but never the log, nor
// does the customer's id (it may be the merchant's reference, an email):
// the log names the route.
func TestGetCustomerQueryNotLogged(t *testing.T) {
	srv := newRecorder(t, reply{status: 200, body: customerCreatedReply})
	var buf bytes.Buffer
	c := newTestClient(t, srv.URL, WithLogger(slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	_, err := c.GetCustomer(context.Background(), "cst_1", &CustomerQuery{ClientAuthToken: true})
	require.NoError(t, err)
	require.Equal(t, "/customers/cst_1?options.get_client_auth_token=true", srv.last(t).RequestURI)
	require.Contains(t, buf.String(), `"path":"/customers/{customer_id}"`)
	require.NotContains(t, buf.String(), "cst_1")
	require.NotContains(t, buf.String(), "get_client_auth_token")
}
