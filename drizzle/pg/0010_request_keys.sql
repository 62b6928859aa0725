-- Idempotency-Key of a bonus or withdrawal request: a retried request finds the row it already made.
ALTER TABLE "bonuses" ADD COLUMN "request_key" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "request_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "bonuses_request_key_idx" ON "bonuses" USING btree ("admin_id","request_key");--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_request_key_idx" ON "withdrawals" USING btree ("user_id","request_key");
