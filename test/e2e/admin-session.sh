#!/usr/bin/env bash
# A realistic admin session on the built binary against a served sandbox, with --json
# and jq checks of what bo printed, its exit codes, and what the sandbox stored:
# list trial accounts -> extend their trials as one batch -> expire an add-on -> add a
# drip message -> remove a tag -> dry-run a cancel.
#
# Needs BO_BASE_URL (a `bo sandbox serve` URL), BO_API_KEY and BO_API_SECRET (its key).
# test/e2e/admin-session.test.ts runs it; by hand:
#   bo sandbox serve --memory --port 4010 &
#   BO_BASE_URL=http://127.0.0.1:4010 BO_API_KEY=… BO_API_SECRET=… bash test/e2e/admin-session.sh
set -euo pipefail

: "${BO_BASE_URL:?set BO_BASE_URL to the sandbox URL}" "${BO_API_KEY:?}" "${BO_API_SECRET:?}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bo() { node "$here/../../bin/bo.js" "$@"; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fail() { echo "admin-session: $*" >&2; exit 1; }
step() { echo "== $*" >&2; }
# expect_exit <code> <command…>: runs the command, fails the session on another exit code.
expect_exit() {
  local want=$1 got=0
  shift
  "$@" || got=$?
  [[ $got == "$want" ]] || fail "exit $got (wanted $want): $*"
}
# check <jq filter> <file>: the filter must be true for the JSON in the file.
check() { jq -e "$1" "$2" >/dev/null || fail "jq check failed: $1 on $2: $(head -c 400 "$2")"; }
# record <Kind> <Uid>: what the sandbox stored.
record() {
  node -e 'fetch(process.argv[1]).then(async (r) => { if (!r.ok) process.exit(3); process.stdout.write(await r.text()); })' \
    "$BO_BASE_URL/__sandbox/records/$1/$2"
}

step "fixtures"
bo sandbox fixtures > "$work/fixtures.json" 2>/dev/null
check '.trialAccounts | length > 0' "$work/fixtures.json"

step "list trial accounts"
expect_exit 0 bo --jsonl accounts list --filter AccountStage=2 --all > "$work/trials.jsonl"
trials=$(wc -l < "$work/trials.jsonl")
(( trials > 0 )) || fail "no trial accounts listed"
jq -s -e 'all(.[]; .AccountStage == 2)' "$work/trials.jsonl" >/dev/null || fail "a listed account is not in trial"

step "extend their trials as one batch"
expect_exit 0 bo --json accounts extend-trial - --to 2031-12-31 < "$work/trials.jsonl" > "$work/extended.json" 2> "$work/extended.err"
check "length == $trials and all(.[]; .ok == true and .status == 200 and .error == null)" "$work/extended.json"
grep -q "^$trials extended on $BO_BASE_URL (profile default)\$" "$work/extended.err" || fail "summary: $(cat "$work/extended.err")"
first=$(head -1 "$work/trials.jsonl" | jq -r .Uid)
sub=$(record Account "$first" | jq -r '.CurrentSubscription.Uid // .CurrentSubscription')
record Subscription "$sub" > "$work/sub.json"
check '.EndDate == "2031-12-31T23:59:59.000Z" and .ExpirationDate == "2031-12-31T23:59:59.000Z"' "$work/sub.json"

step "expire an add-on"
addon=$(jq -r '.subscriptionAddOns[0]' "$work/fixtures.json")
expect_exit 0 bo --json addons expire "$addon" > "$work/expired.json"
check '.ok == true and .changed == true and (.answer | type == "string")' "$work/expired.json"
record SubscriptionAddOn "$addon" > "$work/addon.json"
check '.EndDate != null and .ExpirationDate == .EndDate' "$work/addon.json"
expect_exit 3 bo addons expire sa_not_there 2>/dev/null

step "add a drip message"
drip=$(jq -r '.dripCampaigns[0]' "$work/fixtures.json")
expect_exit 0 bo --json drips add-message "$drip" --name "Day 2" --subject "Getting started" --body "Hello again" \
  --delay-hours 24 > "$work/message.json" 2> "$work/message.err"
grep -q "^Campaign $drip is now inactive until it is reviewed\$" "$work/message.err" || fail "add-message: $(cat "$work/message.err")"
check '.answer | .Message.Subject == "Getting started" and .Message.Name == "Day 2" and .DelayInHours == 24' "$work/message.json"
record DripCampaignMessage "$(jq -r .answer.Uid "$work/message.json")" > "$work/stored-message.json"
check '.Message.Body == "Hello again" and .DelayInHours == 24' "$work/stored-message.json"
record DripCampaign "$drip" > "$work/drip.json"
check '.IsActive == false' "$work/drip.json"

step "remove a tag"
article=$(jq -r '[.articles[] | select(.tagUids | length > 0)][0].uid' "$work/fixtures.json")
tag=$(jq -r "[.articles[] | select(.uid == \"$article\")][0].tagUids[0]" "$work/fixtures.json")
expect_exit 0 bo --json articles untag "$article" "$tag" > "$work/untag.json"
record Article "$article" > "$work/article.json"
check "[.Tags[] | (.Uid? // .)] | index(\"$tag\") == null" "$work/article.json"
expect_exit 0 bo --json articles untag "$article" "$tag" > "$work/untag-again.json"
check '.changed == false and .reason == "no-such-tag"' "$work/untag-again.json"

step "dry-run a cancel"
account=$(jq -r '.trialAccounts[0]' "$work/fixtures.json")
stage_before=$(record Account "$account" | jq .AccountStage)
expect_exit 0 bo --json --no-input accounts cancel "$account" --reason "Closing the shop" --dry-run > "$work/cancel.json"
check ".method == \"PUT\" and .url == \"$BO_BASE_URL/api/v1/crm/accounts/$account/cancel\" and .body == {\"CancelationReason\": \"Closing the shop\"}" "$work/cancel.json"
[[ $(record Account "$account" | jq .AccountStage) == "$stage_before" ]] || fail "the dry run changed the account"
expect_exit 2 bo --no-input accounts cancel "$account" --reason "Closing the shop" 2>/dev/null
expect_exit 2 bo accounts extend-trial "$account" --to 2031-02-30 2>/dev/null

echo "admin session ok" >&2
