#!/usr/bin/env bash
# The banking quick start: a merchant token, a business, its verification, a deposit account, an inbound credit the
# sandbox simulates, an ACH transfer out to a counterparty, and the transfer read back until it completes. Every
# id is read from an earlier answer, so it runs as it is, again and again. Start the server in another terminal,
# in the repository:
#   npm start
# then, in the same folder (the admin CLI writes to the server's store: keep DATABASE_URL the same, or unset):
#   bash docs/dist/quickstart-banking.sh
# It needs bash, curl and node (which reads the JSON answers: no jq needed).
set -euo pipefail

BASE_URL="${BASE_URL:-http://localhost:3000}" # a local server answers every group on one origin

# One field of the JSON on stdin, by a dotted path: `json .access_token`, `json .balance.available`.
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

# 1. Credentials and a token (issueToken, banking API). The banking API takes the merchant's token; on a local
#    server the admin CLI stands in for the merchant console. `--silent` keeps npm's banner off stdout.
CREDENTIALS=$(npm run --silent admin -- create-merchant --name "Quick start banking $(date +%H%M%S)" --json)
TOKEN_ANSWER=$(curl -sS --fail-with-body -X POST "$BASE_URL/oauth/token" \
  -H 'Content-Type: application/json' \
  --data @- <<JSON
{
  "grant_type": "client_credentials",
  "client_id": "$(json .clientId <<<"$CREDENTIALS")",
  "client_secret": "$(json .clientSecret <<<"$CREDENTIALS")"
}
JSON
) || fail "$TOKEN_ANSWER"
TOKEN=$(json .access_token <<<"$TOKEN_ANSWER")
echo "1. merchant $(json .merchantId <<<"$CREDENTIALS"), token for $(json .expires_in <<<"$TOKEN_ANSWER") s"

# 2. Create a business (createBusiness, banking API): the legal entity that holds the accounts. A merchant has one
#    business per tax id (409 for a second), so each run makes up an EIN. In the sandbox its last four digits decide
#    the verification: 0000 rejected, 1111 needs review, 2222 stays pending, others (this 6789) approved.
BUSINESS=$(curl -sS --fail-with-body -X POST "$BASE_URL/finance/api/v1/business" \
  -H "Authorization: Bearer $TOKEN" \
  -H "Idempotency-Key: $(uuid)" \
  -H 'Content-Type: application/json' \
  --data @- <<JSON
{
  "legalName": "Northwind Logistics LLC",
  "dbaName": "Northwind Freight",
  "entityType": "LLC",
  "taxId": "12-$(node -p 'crypto.randomInt(100, 1000)')6789",
  "formationDate": "2019-03-14",
  "incorporationCountry": "US",
  "incorporationState": "DE",
  "address": {
    "line1": "233 South Wacker Drive",
    "line2": "Suite 8400",
    "city": "Chicago",
    "state": "IL",
    "postalCode": "60606",
    "countryCode": "US"
  },
  "phone": "+13125550198",
  "email": "treasury@northwind.example"
}
JSON
) || fail "$BUSINESS"
BUSINESS_ID=$(json .id <<<"$BUSINESS")
echo "2. business $BUSINESS_ID is $(json .verificationStatus <<<"$BUSINESS")"

# 3. Verify it (createIdentityVerification, banking API). Accounts open once the business is approved; the sandbox
#    decides at once, so the answer carries the outcome.
VERIFICATION=$(curl -sS --fail-with-body -X POST "$BASE_URL/finance/api/v1/identity-verification" \
  -H "Authorization: Bearer $TOKEN" \
  -H "Idempotency-Key: $(uuid)" \
  -H 'Content-Type: application/json' \
  --data @- <<JSON
{"businessId": $BUSINESS_ID, "subject": "BUSINESS"}
JSON
) || fail "$VERIFICATION"
echo "3. verification $(json .id <<<"$VERIFICATION") is $(json .status <<<"$VERIFICATION")"

# 4. Open a deposit account (createAccount, banking API). It starts at a zero balance.
ACCOUNT=$(curl -sS --fail-with-body -X POST "$BASE_URL/finance/api/v1/account/$BUSINESS_ID" \
  -H "Authorization: Bearer $TOKEN" \
  -H "Idempotency-Key: $(uuid)" \
  -H 'Content-Type: application/json' \
  --data @- <<JSON
{"accountName": "Operating", "accountType": "CHECKING"}
JSON
) || fail "$ACCOUNT"
ACCOUNT_ID=$(json .id <<<"$ACCOUNT")
echo "4. account $ACCOUNT_ID, number ending $(json .accountNumber <<<"$ACCOUNT")," \
  "available $(json .balance.available <<<"$ACCOUNT") USD"

# 5. Fund it (simulateInboundTransfer, banking API): the sandbox simulates an inbound ACH credit from outside the
#    bank, completed at once. Sandbox only: in production, money arrives from real senders.
CREDIT=$(curl -sS --fail-with-body -X POST "$BASE_URL/finance/api/v1/simulations/inbound-transfer" \
  -H "Authorization: Bearer $TOKEN" \
  -H "Idempotency-Key: $(uuid)" \
  -H 'Content-Type: application/json' \
  --data @- <<JSON
{
  "accountId": $ACCOUNT_ID,
  "amount": 5000,
  "currency": "USD",
  "rail": "ACH",
  "originatorName": "Globex Payroll",
  "description": "Initial funding"
}
JSON
) || fail "$CREDIT"
echo "5. inbound transfer $(json .id <<<"$CREDIT") of $(json .amount <<<"$CREDIT") USD" \
  "is $(json .status <<<"$CREDIT")"

# 6. Add a counterparty to pay (createBankingCounterparty, banking API): the external account on the other side
#    of a transfer. Its account number comes back as the last four digits.
COUNTERPARTY=$(curl -sS --fail-with-body -X POST "$BASE_URL/finance/api/v1/counterparty" \
  -H "Authorization: Bearer $TOKEN" \
  -H "Idempotency-Key: $(uuid)" \
  -H 'Content-Type: application/json' \
  --data @- <<JSON
{
  "businessId": $BUSINESS_ID,
  "name": "Acme Supplies Inc.",
  "type": "BUSINESS",
  "email": "ar@acme-supplies.example",
  "ach": {"routingNumber": "021000021", "accountNumber": "000123456789", "accountType": "CHECKING"}
}
JSON
) || fail "$COUNTERPARTY"
COUNTERPARTY_ID=$(json .id <<<"$COUNTERPARTY")
echo "6. counterparty $COUNTERPARTY_ID"

# 7. Transfer out by ACH (createAchPush, banking API): accepted pending, and the account is debited at once. In the
#    sandbox the amount's cents choose the end: .91 returned, .92 failed, .93 held in processing; others complete.
TRANSFER=$(curl -sS --fail-with-body -X POST "$BASE_URL/finance/api/v1/transaction/ach/push" \
  -H "Authorization: Bearer $TOKEN" \
  -H "Idempotency-Key: $(uuid)" \
  -H 'Content-Type: application/json' \
  --data @- <<JSON
{
  "accountId": $ACCOUNT_ID,
  "counterpartyId": $COUNTERPARTY_ID,
  "amount": 1250,
  "currency": "USD",
  "description": "November supplier invoice 0042",
  "secCode": "CCD",
  "sameDay": false
}
JSON
) || fail "$TRANSFER"
TRANSFER_ID=$(json .id <<<"$TRANSFER")
echo "7. transfer $TRANSFER_ID of $(json .amount <<<"$TRANSFER") USD is $(json .status <<<"$TRANSFER")"

# 8. Read it back (getTransfer, banking API) until it completes. The sandbox takes a step every SANDBOX_STEP_MS
#    (2 s by default): ask once a second, for a minute at most.
for _ in $(seq 60); do
  CURRENT=$(curl -sS --fail-with-body "$BASE_URL/finance/api/v1/transaction/$TRANSFER_ID" \
    -H "Authorization: Bearer $TOKEN") || fail "$CURRENT"
  STATUS=$(json .status <<<"$CURRENT")
  [ "$STATUS" = completed ] && break || sleep 1
done
[ "$STATUS" = completed ] || fail "transfer $TRANSFER_ID is still $STATUS after a minute"
echo "8. transfer $TRANSFER_ID is $STATUS: $(json .amount <<<"$CURRENT") USD from account $ACCOUNT_ID" \
  "to counterparty $COUNTERPARTY_ID"
