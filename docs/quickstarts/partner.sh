#!/usr/bin/env bash
# The partner quick start: a partner linked to a merchant, a token, a recipient, a payment request to it, the
# transaction search, and the payment read back until it completes. Every id is read from an earlier answer, so it
# runs as it is, again and again. Start the server in another terminal, in the repository:
#   npm start
# then, in the same folder (the admin CLI writes to the server's store: keep DATABASE_URL the same, or unset):
#   bash docs/dist/quickstart-partner.sh
# It needs bash, curl and node (which reads the JSON answers: no jq needed).
set -euo pipefail

BASE_URL="${BASE_URL:-http://localhost:3000}" # a local server answers every group on one origin

# One field of the JSON on stdin, by a dotted path: `json .access_token`, `json .data.0.paymentId`.
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

# 1. Credentials. On a local server the admin CLI stands in for the consoles: a merchant, a partner (its Client ID
#    and Client Secret, shown once) and the link that lets the partner act for the merchant. `--silent` keeps
#    npm's own banner off stdout, so only the JSON is read.
MERCHANT=$(npm run --silent admin -- create-merchant --name "Quick start merchant $(date +%H%M%S)" --json)
MERCHANT_ID=$(json .merchantId <<<"$MERCHANT")
PARTNER=$(npm run --silent admin -- create-partner --name "Quick start partner $(date +%H%M%S)" --json)
PARTNER_ID=$(json .partnerId <<<"$PARTNER")
npm run --silent admin -- link --partner "$PARTNER_ID" --merchant "$MERCHANT_ID" --json >/dev/null
echo "1. partner $PARTNER_ID, linked to merchant $MERCHANT_ID"

# 2. Get a partner token (generatePartnerToken, partner API).
TOKEN_ANSWER=$(curl -sS --fail-with-body -X POST "$BASE_URL/finance/v1/generate-token" \
  -H 'Content-Type: application/json' \
  --data @- <<JSON
{"clientId": "$(json .clientId <<<"$PARTNER")", "clientSecret": "$(json .clientSecret <<<"$PARTNER")"}
JSON
) || fail "$TOKEN_ANSWER"
TOKEN=$(json .access_token <<<"$TOKEN_ANSWER")
echo "2. token for $(json .expires_in <<<"$TOKEN_ANSWER") s"

# 3. Create an ACH recipient of the merchant (createAchRecipient, partner API). Its id is the payeeId a payment
#    request takes; the account number comes back as its last four digits.
RECIPIENT=$(curl -sS --fail-with-body -X POST "$BASE_URL/finance/v1/recipient-ach" \
  -H "Authorization: Bearer $TOKEN" \
  -H "Idempotency-Key: $(uuid)" \
  -H 'Content-Type: application/json' \
  --data @- <<JSON
{
  "merchantId": $MERCHANT_ID,
  "email": "maria.gonzalez@example.com",
  "name": "Maria Gonzalez",
  "phone": "+12125550143",
  "type": "INDIVIDUAL",
  "ach": {
    "accountNumber": "000123456789",
    "bankAccountType": "CHECKING",
    "bankName": "JPMorgan Chase Bank, N.A.",
    "routingNumber": "021000021",
    "address": {
      "line1": "350 Fifth Avenue",
      "line2": "Suite 4100",
      "city": "New York",
      "state": "NY",
      "postalCode": "10118",
      "countryCode": "US",
      "type": "RESIDENCE"
    }
  }
}
JSON
) || fail "$RECIPIENT"
RECIPIENT_ID=$(json .id <<<"$RECIPIENT")
echo "3. recipient $RECIPIENT_ID, account ending $(json .ach.accountNumber <<<"$RECIPIENT")"

# 4. Ask for a payment to the recipient (createPaymentRequest, partner API). partnerPaymentUniqueId is your own id
#    of the payment, kept for ever: the same id again returns the same payment, so each payment needs a new one.
PAYMENT=$(curl -sS --fail-with-body -X POST "$BASE_URL/finance/v1/payment_request" \
  -H "Authorization: Bearer $TOKEN" \
  -H "Idempotency-Key: $(uuid)" \
  -H 'Content-Type: application/json' \
  --data @- <<JSON
{
  "merchantId": $MERCHANT_ID,
  "payeeId": $RECIPIENT_ID,
  "amount": 1250,
  "currency": "USD",
  "paymentMethodType": "STANDARD",
  "description": "November commission",
  "externalId": "INV-2026-11-0042",
  "partnerPaymentUniqueId": "quickstart-$(uuid)"
}
JSON
) || fail "$PAYMENT"
PAYMENT_ID=$(json .paymentId <<<"$PAYMENT")
echo "4. payment $PAYMENT_ID is $(json .status <<<"$PAYMENT"), by $(json .route <<<"$PAYMENT")"

# 5. Search the merchant's transactions (searchPartnerTransactions, partner API), newest first.
FOUND=$(curl -sS --fail-with-body -X POST "$BASE_URL/finance/v1/partner/search_transactions" \
  -H "Authorization: Bearer $TOKEN" \
  -H 'Content-Type: application/json' \
  --data @- <<JSON
{"merchantId": $MERCHANT_ID, "pageNumber": 1, "pageSize": 25, "sortProperty": "createdOn", "isDescending": true}
JSON
) || fail "$FOUND"
echo "5. $(json .totalCount <<<"$FOUND") transaction(s); the newest is payment $(json .data.0.paymentId <<<"$FOUND")"

# 6. Read the payment (getPayment, partner API) until it completes. The sandbox takes a step every SANDBOX_STEP_MS
#    (2 s by default): ask once a second, for a minute at most.
for _ in $(seq 60); do
  CURRENT=$(curl -sS --fail-with-body "$BASE_URL/finance/v1/payment_request/$PAYMENT_ID" \
    -H "Authorization: Bearer $TOKEN") || fail "$CURRENT"
  STATUS=$(json .status <<<"$CURRENT")
  [ "$STATUS" = completed ] && break || sleep 1
done
[ "$STATUS" = completed ] || fail "payment $PAYMENT_ID is still $STATUS after a minute"
echo "6. payment $PAYMENT_ID is $STATUS: $(json .amount <<<"$CURRENT") $(json .currency <<<"$CURRENT")" \
  "to recipient $RECIPIENT_ID"
