-- Retries with a policy (engine/retry.ts): a number's attempts at its latest message, the last failure, when
-- a failed send may be tried again, and when the number failed for good ('Gagal permanen'); settings gain
-- 'Maks. Percobaan'.
ALTER TABLE "phone_numbers" ADD COLUMN "send_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD COLUMN "next_attempt_at" bigint;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD COLUMN "last_failed_at" bigint;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD COLUMN "failed_at" bigint;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "max_attempts" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
CREATE INDEX "phone_numbers_retry_idx" ON "phone_numbers" USING btree ("next_attempt_at") WHERE "next_attempt_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "phone_numbers_failed_idx" ON "phone_numbers" USING btree ("id") WHERE "failed_at" IS NOT NULL;
