-- A blast start set for a later time (engine/schedule.ts): one per account, claimed by one node when due.
CREATE TABLE "blast_schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"user_id" integer,
	"run_at" bigint NOT NULL,
	"claimed_until" bigint,
	"created_at" bigint DEFAULT ((extract(epoch from clock_timestamp()) * 1000)::bigint) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blast_schedules" ADD CONSTRAINT "blast_schedules_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blast_schedules" ADD CONSTRAINT "blast_schedules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "blast_schedules_whatsapp_uq" ON "blast_schedules" USING btree ("whatsapp_id");--> statement-breakpoint
CREATE INDEX "blast_schedules_run_at_idx" ON "blast_schedules" USING btree ("run_at");
