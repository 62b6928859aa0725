-- The engine's claims read the first eligible number in their order straight from an index, whatever the
-- list's size: never-sent numbers by id, then cooled-down ones by (last_sent, id). Partial, so they hold
-- only the numbers a claim may take.
CREATE INDEX "phone_numbers_fresh_idx" ON "phone_numbers" USING btree ("id") WHERE "status" = 'active' AND "in_use" = 0 AND "last_sent" IS NULL;
--> statement-breakpoint
CREATE INDEX "phone_numbers_cooled_idx" ON "phone_numbers" USING btree ("last_sent", "id") WHERE "status" = 'active' AND "in_use" = 0 AND "last_sent" IS NOT NULL;
