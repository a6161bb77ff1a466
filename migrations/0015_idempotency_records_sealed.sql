-- Idempotency records written before they were sealed held the Idempotency-Key and the stored
-- response in clear, API keys' `vpk_…` and webhooks' `whsec_…` secrets among them. Lookups now go
-- by the key's hash, so no request can reach those rows again; delete them now rather than wait
-- for the cron's 24-hour purge. (A retry spanning the deploy runs again instead of replaying.)
DELETE FROM `idempotency_keys`;
