-- Cloud API statuses waiting for their message's log row (webhooks/held.ts): kept across restarts and shared by the nodes.
CREATE TABLE "held_statuses" (
	"id" serial PRIMARY KEY NOT NULL,
	"wa_message_id" text NOT NULL,
	"status" text NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "held_statuses_expires_idx" ON "held_statuses" USING btree ("expires_at");