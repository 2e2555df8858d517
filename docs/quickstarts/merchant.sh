#!/usr/bin/env bash
# The merchant quick start: credentials, a token, a webhook to a receiver this script starts, a payee and its bank
# account, a fee preview, a payout, its payout.completed event at the receiver, and the events list. Every id is
# read from an earlier answer, so it runs as it is, again and again. Start the server in another terminal, in the
# repository (the flag lets webhooks reach the receiver on 127.0.0.1 over http://):
#   WEBHOOK_ALLOW_PRIVATE=true npm start
# then, in the same folder (the admin CLI writes to the server's store: keep DATABASE_URL the same, or unset):
#   bash docs/dist/quickstart.sh
# It needs bash, curl and node (which reads the JSON answers: no jq needed).
set -euo pipefail

BASE_URL="${BASE_URL:-http://localhost:3000}" # a local server answers every group on one origin

# One field of the JSON on stdin, by a dotted path: `json .access_token`, `json .data.0.type`.
json() {
  node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
    const v = process.argv[1].split(".").filter(Boolean).reduce((o, k) => o?.[k], JSON.parse(s));
    if (v === undefined) { console.error(`no ${process.argv[1]} in ${s}`); process.exit(1); }
    console.log(typeof v === "object" ? JSON.stringify(v) : v); });' "$1"
}
# A new Idempotency-Key for each create: the same key again would replay the first answer.
uuid() { node -p 'crypto.randomUUID()'; }
# An answer that is not 2xx: show the problem (RFC 9457), and any hint, and stop.
fail() {
  printf '%s\n' "$@" >&2
  exit 1
}

# 1. Credentials. On a local server the admin CLI stands in for the merchant console: a merchant, its Client ID
#    and its Client Secret (shown once). `--silent` keeps npm's own banner off stdout, so only the JSON is read.
CREDENTIALS=$(npm run --silent admin -- create-merchant --name "Quick start $(date +%H%M%S)" --json)
CLIENT_ID=$(json .clientId <<<"$CREDENTIALS")
CLIENT_SECRET=$(json .clientSecret <<<"$CREDENTIALS")
echo "1. merchant $(json .merchantId <<<"$CREDENTIALS"), Client ID $CLIENT_ID"

# 2. Get a token (issueToken, merchant API). It lives expires_in seconds; then ask again with the same credentials.
TOKEN_ANSWER=$(curl -sS --fail-with-body -X POST "$BASE_URL/oauth/token" \
  -H 'Content-Type: application/json' \
  --data @- <<JSON
{"grant_type": "client_credentials", "client_id": "$CLIENT_ID", "client_secret": "$CLIENT_SECRET"}
JSON
) || fail "$TOKEN_ANSWER"
TOKEN=$(json .access_token <<<"$TOKEN_ANSWER")
echo "2. token for $(json .expires_in <<<"$TOKEN_ANSWER") s"

# 3. Register a webhook (createWebhook, merchant API) to a receiver started here, which appends each event it
#    receives to a file, one per line. A real receiver answers 2xx at once and does the work afterwards.
WORK=$(mktemp -d)
node -e 'const fs = require("node:fs");
  require("node:http").createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d)).on("end", () => {
      fs.appendFileSync(process.argv[1], JSON.stringify(JSON.parse(body)) + "\n");
      res.end();
    });
  }).listen(0, "127.0.0.1", function () { fs.writeFileSync(process.argv[2], String(this.address().port)); });' \
  "$WORK/events" "$WORK/port" &
RECEIVER=$!
trap 'kill $RECEIVER 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do [ -s "$WORK/port" ] && break || sleep 0.1; done
[ -s "$WORK/port" ] || fail "the receiver did not start"
WEBHOOK=$(curl -sS --fail-with-body -X POST "$BASE_URL/v1/webhooks" \
  -H "Authorization: Bearer $TOKEN" \
  -H "Idempotency-Key: $(uuid)" \
  -H 'Content-Type: application/json' \
  --data @- <<JSON
{"url": "http://127.0.0.1:$(cat "$WORK/port")/payout-events", "events": ["payout.completed", "payout.failed"]}
JSON
) || fail "$WEBHOOK" "Is the server started with WEBHOOK_ALLOW_PRIVATE=true? Without it, 127.0.0.1 is refused."
echo "3. webhook $(json .id <<<"$WEBHOOK") to $(json .url <<<"$WEBHOOK")"

# 4. Create a payee (createPayee, merchant API). The answer's id is what the next calls take.
PAYEE=$(curl -sS --fail-with-body -X POST "$BASE_URL/v1/payees" \
  -H "Authorization: Bearer $TOKEN" \
  -H "Idempotency-Key: $(uuid)" \
  -H 'Content-Type: application/json' \
  --data @- <<JSON
{
  "payeeType": "individual",
  "name": "Maria Gonzalez",
  "EmailAddress": "maria.gonzalez@example.com",
  "phoneNumber": "+12125550143",
  "idType": "passport",
  "address": {
    "addressLine": "350 Fifth Avenue, Suite 4100",
    "state": "NY",
    "city": "New York",
    "country": "US",
    "postalCode": "10118"
  },
  "dateOfBirth": "1988-04-17"
}
JSON
) || fail "$PAYEE"
PAYEE_ID=$(json .id <<<"$PAYEE")
echo "4. payee $PAYEE_ID"

# 5. Add the payee's bank account (createPayeeAccount, merchant API). In the sandbox the account number's last four
#    digits choose the payout's outcome: 0001 to 0005 fail (see the sandbox test accounts), this one completes.
ACCOUNT=$(curl -sS --fail-with-body -X POST "$BASE_URL/v1/payees/$PAYEE_ID/accounts" \
  -H "Authorization: Bearer $TOKEN" \
  -H "Idempotency-Key: $(uuid)" \
  -H 'Content-Type: application/json' \
  --data @- <<JSON
{
  "type": "BANK_ACCOUNT",
  "accountHolderName": "Maria Gonzalez",
  "bankName": "First Hudson Bank",
  "routingNumber": "021000021",
  "accountNumber": "000123456789",
  "bankClearingSystemCode": "USABA",
  "branchTransitNumber": null,
  "IBAN": null,
  "Currency": "USD",
  "accountType": "CHECKINGS"
}
JSON
) || fail "$ACCOUNT"
echo "5. account $(json .PayeeAccountId <<<"$ACCOUNT")"

# 6. Preview the fee (calculateFees, platform API): the itemised fees, total fee and total debit of a payout by
#    destination country, currency and rail. The platform group's paths start with /payouts.
FEE=$(curl -sS --fail-with-body -X POST "$BASE_URL/payouts/api/v1/fees/calculate" \
  -H "Authorization: Bearer $TOKEN" \
  -H 'Content-Type: application/json' \
  --data @- <<JSON
{"destinationCountry": "US", "currency": "USD", "rail": "ACH", "amount": 1250}
JSON
) || fail "$FEE"
echo "6. fee $(json .totalFee <<<"$FEE") USD, total debit $(json .totalDebit <<<"$FEE") USD"

# 7. Create the payout (createPayout, merchant API): accepted (202) in state created, then processed
#    asynchronously. The Idempotency-Key makes a retry after a network error safe: it cannot pay twice.
PAYOUT=$(curl -sS --fail-with-body -X POST "$BASE_URL/v1/payouts" \
  -H "Authorization: Bearer $TOKEN" \
  -H "Idempotency-Key: $(uuid)" \
  -H 'Content-Type: application/json' \
  --data @- <<JSON
{"PayeeId": $PAYEE_ID, "Amount": 1250, "Currency": "USD", "Description": "November commission",
 "metadata": {"order_id": "ORD-2026-11-0042"}}
JSON
) || fail "$PAYOUT"
PAYOUT_REF=$(json .PayoutUniqueReference <<<"$PAYOUT")
echo "7. payout $PAYOUT_REF is $(json .Status <<<"$PAYOUT")"

# 8. Receive its payout.completed event at the receiver. The sandbox takes a step every SANDBOX_STEP_MS (2 s by
#    default): wait until the event is there, for a minute at most.
completed() { grep -F "\"$PAYOUT_REF\"" "$WORK/events" 2>/dev/null | grep '"payout.completed"'; }
for _ in $(seq 120); do completed >/dev/null && break || sleep 0.5; done
EVENT=$(completed) || fail "no payout.completed event for $PAYOUT_REF within a minute"
echo "8. received $(json .type <<<"$EVENT") $(json .id <<<"$EVENT") for $(json .amount <<<"$EVENT") USD"

# 9. Read the payout and its events (getPayout and listEvents, merchant API): the events API keeps every event for
#    30 days, with the id its delivery carried, so a receiver that was down can catch up.
CURRENT=$(curl -sS --fail-with-body "$BASE_URL/v1/payouts/$PAYOUT_REF" \
  -H "Authorization: Bearer $TOKEN") || fail "$CURRENT"
EVENTS=$(curl -sS --fail-with-body "$BASE_URL/v1/events?PayoutUniqueReference=$PAYOUT_REF" \
  -H "Authorization: Bearer $TOKEN") || fail "$EVENTS"
echo "9. payout $PAYOUT_REF is $(json .Status <<<"$CURRENT"); its events, newest first:" \
  "$(node -p 'JSON.parse(process.argv[1]).data.map((e) => e.type).join(", ")' "$EVENTS")"
